import { createContext } from "preact";

/** What the live page lets a finished turn do (absent on a static page, or where the server has no route). */
export interface TurnActions {
  fork?: (turnId: string) => Promise<void>;
}

export const TurnActionsContext = createContext<TurnActions>({});
