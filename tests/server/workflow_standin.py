"""A local stand-in for the check API's automation workflow (CONTRACT §3).

It speaks the workflow's side of the protocol: scamcheckd POSTs each new
check to it as {check_uuid, type, content, url, locale, callback_url}; it
answers the dispatch and later POSTs {check_uuid, risk_level, risk_score,
explanation, indicators} to callback_url. Its behaviour is set per
instance:

  answer        answer after `delay` seconds with a consistent result
  late          answer after `delay` seconds (set it past the analysis timeout)
  never         accept the dispatch, never answer
  twice         answer twice; the second answer must be refused with 409
  inconsistent  answer with a risk_level that disagrees with risk_score
  hang          never finish answering the dispatch itself

Loopback only; standard library only.
"""

import http.client
import http.server
import json
import threading
import time
import urllib.parse


class WorkflowStandIn:
    def __init__(self, mode="answer", delay=0.2, score=88, level=None, on_response=None):
        self.mode = mode
        self.on_response = on_response  # called (method, path, status, headers, body) per callback
        self.delay = delay
        self.score = score
        self.level = level or ("danger" if score >= 70 else "warning" if score >= 30 else "safe")
        self.dispatches = []      # the bodies scamcheckd sent
        self.callbacks = []       # (status, body) of each result POSTed back
        self.lock = threading.Lock()
        self.release = threading.Event()  # ends "hang"
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length))
                with outer.lock:
                    outer.dispatches.append(body)
                if outer.mode == "hang":
                    outer.release.wait(30)
                    return
                self.send_response(202)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")
                if outer.mode != "never":
                    threading.Thread(target=outer._answer, args=(body,), daemon=True).start()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.release.set()
        self.server.shutdown()
        self.server.server_close()

    def result_for(self, dispatch):
        level = self.level
        if self.mode == "inconsistent":
            level = "safe" if self.score >= 30 else "danger"
        return {"check_uuid": dispatch["check_uuid"], "risk_level": level,
                "risk_score": self.score, "explanation": "Workflow says: " + level,
                "indicators": ["workflow indicator one", "workflow indicator two"]}

    def post_result(self, callback_url, result):
        parts = urllib.parse.urlsplit(callback_url)
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        try:
            conn.request("POST", parts.path, body=json.dumps(result),
                         headers={"Content-Type": "application/json"})
            resp = conn.getresponse()
            data = resp.read()
            if self.on_response:
                self.on_response("POST", parts.path, resp.status,
                                 {k.lower(): v for k, v in resp.getheaders()}, data)
        finally:
            conn.close()
        with self.lock:
            self.callbacks.append((resp.status, json.loads(data) if data else None))
        return resp.status

    def _answer(self, dispatch):
        time.sleep(self.delay)
        result = self.result_for(dispatch)
        self.post_result(dispatch["callback_url"], result)
        if self.mode == "twice":
            self.post_result(dispatch["callback_url"], result)

    def wait_for(self, predicate, timeout=15):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if predicate(self):
                    return True
            time.sleep(0.05)
        return False
