#!/usr/bin/env python3
"""A stand-in for the Telegram Bot API on loopback, for the bot's tests.

Speaks the real protocol (https://core.telegram.org/bots/api): method calls
at POST /bot<token>/<method> with a JSON (or form) body, answered with
{"ok": true, "result": ...} or {"ok": false, "error_code": N, "description":
"..."}; files at GET /file/bot<token>/<file_path>. Like Telegram it refuses
a wrong token (401), an unknown method (404), an unknown file_id (400), and
a sendMessage whose HTML does not parse or whose text is over 4096
characters (400, "Bad Request: can't parse entities: ..." / "message is too
long"). Every call is recorded with its JSON body.

  standin = BotApiStandin(token)           # listens on 127.0.0.1, any port
  standin.add_file("photo-1", "photos/file_1.png", png_bytes)
  ... point the bot at standin.base_url ...
  standin.wait_for(lambda calls: ..., timeout=30)
  standin.stop()
"""

import html
import json
import os
import re
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# Tags Telegram's HTML parse mode accepts (https://core.telegram.org/bots/api#html-style).
ALLOWED_TAGS = {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span",
                "tg-spoiler", "a", "code", "pre", "blockquote", "tg-emoji"}
TAG = re.compile(r"<(/?)([a-zA-Z-]+)((?:\s+[a-zA-Z-]+(?:=\"[^\"<>]*\")?)*)\s*>")
ENTITY = re.compile(r"&(lt|gt|amp|quot|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});")


class EntityError(ValueError):
    pass


def parse_html(text):
    """The visible text of a message in HTML parse mode, as Telegram reads
    it; EntityError where Telegram answers "can't parse entities"."""
    out = []
    stack = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "<":
            m = TAG.match(text, i)
            if not m:
                raise EntityError(f"unsupported start tag at byte offset {i}")
            closing, name = m.group(1) == "/", m.group(2).lower()
            if name not in ALLOWED_TAGS:
                raise EntityError(f'unsupported start tag "{name}" at byte offset {i}')
            if closing:
                if not stack or stack[-1] != name:
                    raise EntityError(f'unexpected end tag "{name}" at byte offset {i}')
                stack.pop()
            else:
                stack.append(name)
            i = m.end()
        elif c == "&":
            m = ENTITY.match(text, i)
            if not m:
                raise EntityError(f"unsupported entity at byte offset {i}")
            out.append(html.unescape(m.group(0)))
            i = m.end()
        elif c == ">":
            raise EntityError(f"unexpected '>' at byte offset {i}")
        else:
            out.append(c)
            i += 1
    if stack:
        raise EntityError(f'can\'t find end tag corresponding to start tag "{stack[-1]}"')
    return "".join(out)


def utf16_len(text):
    return len(text.encode("utf-16-le")) // 2


class BotApiStandin:
    def __init__(self, token, port=0):
        self.token = token
        self.calls = []          # {"method": ..., "body": {...}} or {"method": "file", "path": ...}
        self.files = {}          # file_id -> (file_path, bytes, advertised size or None)
        self.cond = threading.Condition()
        self.next_message_id = 1000
        self.rate_limit_next = 0  # how many sendMessage calls to answer 429
        self.send_delay = 0.0     # seconds each sendMessage takes
        standin = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def answer(self, status, payload, ctype="application/json"):
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def error(self, code, description):
                payload = {"ok": False, "error_code": code, "description": description}
                if isinstance(description, tuple):  # (description, parameters)
                    payload["description"], payload["parameters"] = description
                self.answer(code, payload)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                prefix = f"/bot{standin.token}/"
                path = urllib.parse.urlsplit(self.path).path
                if not path.startswith("/bot"):
                    return self.error(404, "Not Found")
                if not path.startswith(prefix):
                    return self.error(401, "Unauthorized")
                method = path[len(prefix):]
                ctype = self.headers.get("Content-Type", "")
                try:
                    if ctype.startswith("application/json"):
                        body = json.loads(raw or b"{}")
                    else:
                        body = dict(urllib.parse.parse_qsl(raw.decode()))
                except ValueError:
                    return self.error(400, "Bad Request: invalid JSON")
                standin.record({"method": method, "body": body})
                handler = getattr(standin, "api_" + method, None)
                if handler is None:
                    return self.error(404, "Not Found")
                status, result = handler(body)
                if status != 200:
                    return self.error(status, result)
                self.answer(200, {"ok": True, "result": result})

            def do_GET(self):
                prefix = f"/file/bot{standin.token}/"
                path = urllib.parse.urlsplit(self.path).path
                if not path.startswith(prefix):
                    return self.error(404, "Not Found")
                file_path = path[len(prefix):]
                standin.record({"method": "file", "path": file_path})
                for stored_path, data, _ in standin.files.values():
                    if stored_path == file_path:
                        return self.answer(200, data, "application/octet-stream")
                self.error(404, "Not Found")

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def add_file(self, file_id, file_path, data, advertised_size=None):
        self.files[file_id] = (file_path, data, advertised_size)

    def record(self, call):
        with self.cond:
            self.calls.append(call)
            self.cond.notify_all()

    def snapshot(self):
        with self.cond:
            return list(self.calls)

    def wait_for(self, predicate, timeout):
        """Waits until predicate(calls) is true; returns its value or None."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                value = predicate(list(self.calls))
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(left)

    # Methods -------------------------------------------------------------

    def api_getMe(self, body):
        return 200, {"id": int(self.token.split(":")[0]), "is_bot": True,
                     "first_name": "ScamCheck test bot", "username": "scamcheck_test_bot"}

    def api_sendMessage(self, body):
        if self.send_delay:
            time.sleep(self.send_delay)
        with self.cond:
            if self.rate_limit_next > 0:
                self.rate_limit_next -= 1
                return 429, ("Too Many Requests: retry after 1", {"retry_after": 1})
        if "chat_id" not in body:
            return 400, "Bad Request: chat_id is empty"
        text = body.get("text")
        if not isinstance(text, str) or not text:
            return 400, "Bad Request: message text is empty"
        visible = text
        if body.get("parse_mode") == "HTML":
            try:
                visible = parse_html(text)
            except EntityError as e:
                return 400, f"Bad Request: can't parse entities: {e}"
        if utf16_len(visible) > 4096:
            return 400, "Bad Request: message is too long"
        with self.cond:
            self.next_message_id += 1
            message_id = self.next_message_id
        return 200, {"message_id": message_id, "date": int(time.time()),
                     "chat": {"id": body["chat_id"], "type": "private"}, "text": visible}

    def api_getFile(self, body):
        file_id = body.get("file_id")
        if file_id not in self.files:
            return 400, "Bad Request: invalid file_id"
        file_path, data, advertised = self.files[file_id]
        return 200, {"file_id": file_id, "file_unique_id": "u" + file_id,
                     "file_size": advertised if advertised is not None else len(data),
                     "file_path": file_path}


def main():
    """Runs the stand-in alone, printing every call as a JSON line, to try
    the bot without Telegram (examples/telegram-bot/README.md)."""
    import argparse
    parser = argparse.ArgumentParser(description="A local stand-in for the Telegram Bot API.")
    parser.add_argument("--token", default="123456:local-test-token",
                        help="the bot token it accepts (default: %(default)s)")
    parser.add_argument("--port", type=int, default=8090, help="port on 127.0.0.1 (default: %(default)s)")
    parser.add_argument("--file", action="append", default=[], metavar="FILE_ID=PATH",
                        help="serve the file PATH for getFile(FILE_ID); repeatable")
    args = parser.parse_args()
    standin = BotApiStandin(args.token, args.port)
    for spec in args.file:
        file_id, _, path = spec.partition("=")
        with open(path, "rb") as f:
            standin.add_file(file_id, "files/" + os.path.basename(path), f.read())
    print(f"Bot API stand-in on {standin.base_url} (token {args.token})", flush=True)
    seen = 0
    try:
        while True:
            calls = standin.wait_for(lambda c: len(c) > seen and c, 3600) or []
            for call in calls[seen:]:
                print(json.dumps(call, ensure_ascii=False), flush=True)
            seen = len(calls)
    except KeyboardInterrupt:
        standin.stop()


if __name__ == "__main__":
    main()
