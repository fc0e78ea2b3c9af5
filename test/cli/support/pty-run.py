#!/usr/bin/env python3
"""TEST TOOL: runs a command with stdin and stderr on a fresh pseudo-terminal (its controlling terminal) and
stdout left as this process's stdout, so a test reads the JSON output apart from the prompts.

What the test writes to our stdin goes to the terminal as typed keys ("\\x03" is Ctrl-C, "\\x04" Ctrl-D);
what the command writes to the terminal comes out on our stderr. Our exit code is the command's
(128 + N when a signal N ended it).  Usage: pty-run.py COMMAND [ARG...]"""
import errno
import fcntl
import os
import select
import struct
import subprocess
import sys
import termios


def main() -> int:
    master, slave = os.openpty()
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 160, 0, 0))

    def become_terminal_owner() -> None:
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    child = subprocess.Popen(sys.argv[1:], stdin=slave, stderr=slave, preexec_fn=become_terminal_owner)
    os.close(slave)
    inputs = [master, sys.stdin.fileno()]
    while True:
        readable, _, _ = select.select(inputs, [], [], 0.1)
        if master in readable:
            try:
                data = os.read(master, 65536)
            except OSError as error:
                if error.errno != errno.EIO:
                    raise
                data = b""
            if not data:
                break
            os.write(sys.stderr.fileno(), data)
        if sys.stdin.fileno() in readable:
            data = os.read(sys.stdin.fileno(), 65536)
            if data:
                os.write(master, data)
            else:
                inputs.remove(sys.stdin.fileno())
        if master not in inputs:
            break
    code = child.wait()
    return 128 - code if code < 0 else code


if __name__ == "__main__":
    sys.exit(main())
