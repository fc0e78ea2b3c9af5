import { Component, type ComponentChildren } from "preact";

interface GuardProps {
  /** What the guarded part is, for the note shown in its place ("item", "turn", "summary"…). */
  what: string;
  /** A new key (the part's version) clears a caught error: the part is drawn again with what it has now. */
  resetKey?: unknown;
  children: ComponentChildren;
}

interface GuardState {
  error?: string | undefined;
}

/**
 * An error boundary around one part of a session's view. An event with a field of the wrong type can make a part
 * throw while it is drawn; without a boundary that throw unmounts the whole page. The part that threw is replaced
 * by a note saying so, and everything else is drawn as usual.
 */
export class Guard extends Component<GuardProps, GuardState> {
  static override getDerivedStateFromError(error: unknown): GuardState {
    return { error: error instanceof Error ? error.message : String(error) };
  }

  override componentDidUpdate(previous: GuardProps): void {
    if (this.state.error !== undefined && previous.resetKey !== this.props.resetKey)
      this.setState({ error: undefined });
  }

  override render() {
    if (this.state.error === undefined) return this.props.children;
    return (
      <div class="render-error" role="note">
        This {this.props.what} could not be shown: {this.state.error}
      </div>
    );
  }
}
