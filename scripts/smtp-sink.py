#!/usr/bin/env python3
"""A throwaway SMTP server for the mail tests.

Listens on 127.0.0.1:PORT and writes every message it receives, as sent, into
DIR, one file each (written under a temporary name, then renamed, so a reader never
sees half a message). Prints "ready" once it accepts connections, and runs until it
is stopped with SIGTERM or SIGINT, or, with --exit-with-stdin, when its standard
input closes (so it ends with the test process that started it, however that ends).

    smtp-sink.py --port 2525 --dir /tmp/mails
"""

import argparse
import itertools
import os
import signal
import sys
import threading
import time

from aiosmtpd.controller import Controller


class SaveToDirectory:
    def __init__(self, directory):
        self.directory = directory
        self.counter = itertools.count(1)
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            n = next(self.counter)
        name = f"{time.time_ns()}-{n:05d}.eml"
        tmp = os.path.join(self.directory, f".{name}.tmp")
        data = envelope.original_content or envelope.content
        if isinstance(data, str):
            data = data.encode("utf-8")
        with open(tmp, "wb") as f:
            f.write(data)
        os.rename(tmp, os.path.join(self.directory, name))
        return "250 Message accepted for delivery"


def main():
    parser = argparse.ArgumentParser(description="Save received mail to a directory.")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--exit-with-stdin", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)

    controller = Controller(
        SaveToDirectory(args.dir),
        hostname="127.0.0.1",
        port=args.port,
        enable_SMTPUTF8=True,
    )
    controller.start()
    print("ready", flush=True)

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())

    def watch_stdin():
        # The parent going away closes our stdin: stop with it.
        try:
            while sys.stdin.read(4096):
                pass
        except (OSError, ValueError):
            pass
        stop.set()

    if args.exit_with_stdin:
        threading.Thread(target=watch_stdin, daemon=True).start()
    stop.wait()
    controller.stop()


if __name__ == "__main__":
    main()
