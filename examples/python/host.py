#!/usr/bin/env python3
"""A host of `provider-runtime serve` in Python, standard library only.

It creates a session, streams its events (SSE), approves what the agent asks, sends a second turn over a
reconnected stream (Last-Event-ID: nothing missed, nothing twice), and stops the session.

    PROVIDER_RUNTIME_TOKEN=$(cat ~/.provider-runtime/token) python3 host.py http://127.0.0.1:4317 [CWD]

The token comes from the environment, never the command line (any local user can read a process's arguments).
"""

import http.client
import json
import os
import sys
import urllib.parse

PROMPTS = ["mock:shell run a command", "mock:text and now say hello"]


class Server:
    def __init__(self, base_url, token):
        url = urllib.parse.urlsplit(base_url)
        self.host, self.port = url.hostname, url.port or 80
        self.headers = {"Authorization": f"Bearer {token}"}

    def call(self, method, path, body=None):
        """One JSON call; raises on a status of 400 and above with the server's {error, field}."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        headers = dict(self.headers)
        data = None
        if body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps(body)
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        answer = json.loads(response.read() or b"null")
        connection.close()
        if response.status >= 400:
            raise RuntimeError(f"{method} {path}: {response.status} {answer}")
        return answer

    def events(self, session_id, last_event_id=None):
        """The session's events over SSE (raw=0: without the native records), as (sequence, event) pairs."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        headers = dict(self.headers, Accept="text/event-stream")
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        connection.request("GET", f"/v1/sessions/{session_id}/events?raw=0", headers=headers)
        response = connection.getresponse()
        if response.status != 200:
            raise RuntimeError(f"events: {response.status} {response.read()!r}")
        try:
            sequence, data = None, []
            for raw_line in response:
                line = raw_line.decode("utf-8").rstrip("\r\n")
                if line == "":  # the end of a message
                    if data:
                        yield sequence, json.loads("\n".join(data))
                    sequence, data = None, []
                elif line.startswith(":"):  # a comment: the heartbeat
                    continue
                elif line.startswith("id:"):
                    sequence = int(line[3:].strip())
                elif line.startswith("data:"):
                    data.append(line[5:].removeprefix(" "))
        finally:
            connection.close()


def main():
    base_url = sys.argv[1]
    cwd = sys.argv[2] if len(sys.argv) > 2 else None
    server = Server(base_url, os.environ["PROVIDER_RUNTIME_TOKEN"])
    body = {"provider": "codex"}
    if cwd is not None:
        body["cwd"] = cwd
    session = server.call("POST", "/v1/sessions", body)
    session_id = session["id"]
    print(f"session {session_id}", flush=True)

    seen = []  # sequences, in the order received: a duplicate or a gap would show here
    approved = 0
    reconnected_after = None
    for turn, prompt in enumerate(PROMPTS, start=1):
        server.call("POST", f"/v1/sessions/{session_id}/turns", {"text": prompt})
        last = seen[-1] if seen else None
        if last is not None:
            reconnected_after = last
        # turn 1 reads from the start; turn 2 reconnects where turn 1's connection left off
        for sequence, event in server.events(session_id, last_event_id=last):
            seen.append(sequence)
            print(f"{sequence:4} {event['type']}", flush=True)
            if event["type"] == "request.opened":
                path = f"/v1/sessions/{session_id}/requests/{event['requestId']}"
                server.call("POST", path, {"decision": "accept"})
                approved += 1
            if event["type"] == "turn.completed":
                break  # leaves the connection: the next turn's stream resumes after this event
        print(f"turn {turn} done", flush=True)

    stopped = server.call("DELETE", f"/v1/sessions/{session_id}")
    summary = {
        "session": session_id,
        "turns": len(PROMPTS),
        "approved": approved,
        "reconnectedAfter": reconnected_after,
        "events": len(seen),
        "inOrderOnce": seen == list(range(1, len(seen) + 1)),
        "state": stopped["state"],
    }
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
