"""The harness both client suites share (standard library only): one line per check, the failing call with
its status and body, an exit status that says whether everything passed, and the sign-in form a browser
would fill in.

A check is a function that raises on failure. Calls to the server go through `call`, so that a failure
names the request that failed and shows what the server answered (an SDK's exception carries the status
and body under different names: artikcloud's `status`/`body`, exist-client's `status_code`/`content`).
"""
import html.parser
import json
import os
import sys
import traceback
import urllib.parse


class Failed(Exception):
    """A check's expectation that did not hold, with the call it was about and what came back."""

    def __init__(self, message, call=None, status=None, body=None):
        super().__init__(message)
        self.call, self.status, self.body = call, status, body


class Skipped(Exception):
    """A check that cannot run because an earlier one failed (its reason names that one)."""


def status_and_body(error):
    """The HTTP status and body an SDK's or requests' exception carries, when it carries one."""
    for status_name, body_name in (("status", "body"), ("status_code", "content")):
        if hasattr(error, status_name) and isinstance(getattr(error, status_name), int):
            return getattr(error, status_name), text(getattr(error, body_name, None))
    response = getattr(error, "response", None)
    if response is not None and hasattr(response, "status_code"):
        return response.status_code, text(response.content)
    return None, None


def text(body):
    if body is None:
        return None
    if isinstance(body, bytes):
        body = body.decode("utf-8", "replace")
    return body if len(body) <= 2000 else body[:2000] + f"… ({len(body)} characters)"


# The last answer an SDK received, recorded by a hook on its HTTP layer (see `record`): when an SDK fails
# parsing an answer (a KeyError in its model), its exception carries no status or body, but the report should.
last_answer = {}


def record(status, body):
    last_answer.update(status=status, body=text(body))


def call(description, function, *arguments, **keywords):
    """Runs one request; any exception becomes a `Failed` naming the request, its status and body."""
    last_answer.clear()
    try:
        return function(*arguments, **keywords)
    except (Failed, Skipped):
        raise
    except Exception as error:  # the SDKs raise their own types, and model errors (KeyError, ValueError)
        status, body = status_and_body(error)
        name = type(error).__name__
        detail = str(error).strip().splitlines()[0] if str(error).strip() else ""
        if status is None:
            # Not an HTTP refusal: the SDK failed reading the answer (or could not connect). Where it failed, and
            # the answer it was reading, are the useful part.
            frames = traceback.extract_tb(error.__traceback__)[-2:]
            detail += " at " + " < ".join(f"{os.path.basename(f.filename)}:{f.lineno} {f.name}" for f in reversed(frames))
            status, body = last_answer.get("status"), last_answer.get("body")
        raise Failed(f"{name}: {detail}", call=description, status=status, body=body) from error


def refused(description, function, status, *arguments, **keywords):
    """Runs a request that must be refused with `status`; returns the refusal's body text."""
    try:
        answer = function(*arguments, **keywords)
    except Exception as error:
        got, body = status_and_body(error)
        if got == status:
            return body or ""
        if got is None:
            raise Failed(f"expected HTTP {status}, got {type(error).__name__}: {error}", call=description) from error
        raise Failed(f"expected HTTP {status}, got {got}", call=description, status=got, body=body) from error
    raise Failed(f"expected HTTP {status}, but the call succeeded", call=description, status="2xx",
                 body=text(repr(answer)))


def expect(condition, message, call=None, status=None, body=None):
    if not condition:
        raise Failed(message, call=call, status=status, body=body)


def needs(*values):
    """Skips a check whose input an earlier, failed check should have made."""
    for value in values:
        if value is None:
            raise Skipped("needs what an earlier failed check should have made")


class Checklist:
    def __init__(self, title):
        self.title = title
        self.passed, self.failed, self.skipped = 0, [], 0
        print(f"# {title}", flush=True)

    def check(self, name, function):
        """Runs one check and prints its line; returns what the check returned (None when it failed)."""
        try:
            result = function()
        except Skipped as skip:
            self.skipped += 1
            print(f"skip  {name}: {skip}", flush=True)
            return None
        except Failed as failure:
            self.failed.append(name)
            print(f"FAIL  {name}: {failure}", flush=True)
            if failure.call:
                print(f"        call:   {failure.call}")
            if failure.status is not None:
                print(f"        status: {failure.status}")
            if failure.body is not None:
                print(f"        body:   {failure.body}")
            sys.stdout.flush()
            return None
        except Exception as error:  # a bug in the check itself, or an SDK error outside `call`
            self.failed.append(name)
            print(f"FAIL  {name}: {type(error).__name__}: {error}", flush=True)
            traceback.print_exc(limit=4, file=sys.stdout)
            sys.stdout.flush()
            return None
        self.passed += 1
        print(f"ok    {name}", flush=True)
        return result

    def note(self, text):
        """A line that is neither a pass nor a failure: what the client could not exercise, and why."""
        print(f"note  {text}", flush=True)

    def finish(self):
        total = self.passed + len(self.failed) + self.skipped
        print(f"# {self.title}: {self.passed} of {total} checks passed, {len(self.failed)} failed, {self.skipped} skipped")
        for name in self.failed:
            print(f"#   failed: {name}")
        return 1 if self.failed or self.skipped else 0


def setting(name, default=None):
    """A setting from the environment; a missing required one ends the run with usage status 2."""
    value = os.environ.get(name, default)
    if value is None:
        print(f"{os.path.basename(sys.argv[0])}: set {name} (see the top of this script)", file=sys.stderr)
        sys.exit(2)
    return value


class SignInForm(html.parser.HTMLParser):
    """The first <form> of a sign-in page: its method, action and fields, as a browser would submit them."""

    def __init__(self, page):
        super().__init__()
        self.method, self.action, self.fields, self._inside = None, None, {}, False
        self.feed(page)

    def handle_starttag(self, tag, attributes):
        attributes = dict(attributes)
        if tag == "form" and self.action is None:
            self.method = (attributes.get("method") or "get").lower()
            self.action = attributes.get("action") or ""
            self._inside = True
        elif tag == "input" and self._inside and attributes.get("name"):
            self.fields[attributes["name"]] = attributes.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "form":
            self._inside = False

    def filled(self, username, password):
        """The fields with the user's name and password typed in, as the browser would post them."""
        expect(self.action is not None, "the sign-in page has no form")
        expect("username" in self.fields and "password" in self.fields,
               f"the sign-in form has no username/password fields: {sorted(self.fields)}")
        return dict(self.fields, username=username, password=password)

    def target(self, page_url):
        return urllib.parse.urljoin(page_url, self.action)


def dumps(value):
    return json.dumps(value, sort_keys=True)[:600]
