#!/usr/bin/env python3
"""The card payment provider's emulator (localstripe) for the payments tests.

Serves localstripe's aiohttp application on 127.0.0.1 only, with its state kept in
memory: localstripe on its own pickles every write to a file in the temp folder and
reloads that file at start, so two runs (or two test binaries) would share state.
Prints one line, "listening on http://127.0.0.1:PORT", once it accepts connections,
and runs until it is stopped with SIGTERM or SIGINT, or, with --exit-with-stdin,
when its standard input closes (so it ends with the test process that started it,
however that ends).

    payment-emulator.py --port 0            # 0 picks a free port
    payment-emulator.py --port 8420 --verbose

Reset its data with DELETE /_config/data; register a webhook endpoint with
POST /_config/webhooks/NAME (url=..., secret=whsec_...).
"""

import argparse
import asyncio
import logging
import signal
import socket
import sys
import threading

try:
    from aiohttp import web
    from localstripe.resources import Store
except ImportError as error:
    sys.exit(
        f"payment-emulator.py: {error}. Install the tests' Python tools with "
        "./scripts/ensure-python-tools and run this with .venv/bin/python."
    )

# Memory only: no pickle written on every change, none read at start. Patched on the
# class before the server module is imported, so the store it builds never touches
# the disk.
Store.dump_to_disk = lambda self: None
Store.try_load_from_disk = lambda self: None

from localstripe.server import app  # noqa: E402  (after the patch above, on purpose)


async def serve(port, exit_with_stdin, verbose):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))

    access_log = None
    if verbose:
        access_log = logging.getLogger("aiohttp.access")
        access_log.setLevel(logging.DEBUG)
        access_log.addHandler(logging.StreamHandler(sys.stderr))

    runner = web.AppRunner(app, access_log=access_log)
    await runner.setup()
    await web.SockSite(runner, sock).start()
    print(f"listening on http://127.0.0.1:{sock.getsockname()[1]}", flush=True)

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)

    if exit_with_stdin:

        def watch_stdin():
            # The parent going away closes our stdin: stop with it.
            try:
                while sys.stdin.read(4096):
                    pass
            except (OSError, ValueError):
                pass
            loop.call_soon_threadsafe(stop.set)

        threading.Thread(target=watch_stdin, daemon=True).start()

    await stop.wait()
    await runner.cleanup()


def main():
    parser = argparse.ArgumentParser(description="Run the payment provider emulator.")
    parser.add_argument("--port", type=int, required=True, help="0 picks a free port")
    parser.add_argument("--exit-with-stdin", action="store_true")
    parser.add_argument("--verbose", action="store_true", help="log every request to stderr")
    args = parser.parse_args()
    asyncio.run(serve(args.port, args.exit_with_stdin, args.verbose))


if __name__ == "__main__":
    main()
