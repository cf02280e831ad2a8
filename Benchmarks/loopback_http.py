"""Plain-socket HTTP for the server benchmarks: requests sent exactly as written, from a chosen loopback
address (the server's per-address limits tell hosts apart by it), answers read to their Content-Length."""
import socket, time, urllib.parse


def connect(port, source, timeout=10):
    return socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))


def exchange(port, source, request, timeout=None):
    """Sends REQUEST on a new connection from SOURCE; returns (answer bytes, seconds from connect to last byte)."""
    start = time.perf_counter()
    sock = connect(port, source)
    if timeout is not None:
        sock.settimeout(timeout)
    sock.sendall(request)
    received = b""
    while True:
        head, sep, body = received.partition(b"\r\n\r\n")
        if sep:
            length = next((int(l.split(b":")[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")), 0)
            if len(body) >= length:
                break
        chunk = sock.recv(65536)
        if not chunk:
            break
        received += chunk
    sock.close()
    return received, time.perf_counter() - start


def sign_in(port, source, name, password):
    """An access token for NAME through the implicit flow (`POST /authorize`), as bytes."""
    form = urllib.parse.urlencode({"client_id": "hmon", "response_type": "token", "redirect_uri": "hmon://signed-in",
                                   "username": name, "password": password}).encode()
    answer, _ = exchange(port, source, b"POST /authorize HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                         + b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(form) + form)
    location = next(l for l in answer.split(b"\r\n") if l.lower().startswith(b"location:"))
    return location.split(b"access_token=")[1].split(b"&")[0]
