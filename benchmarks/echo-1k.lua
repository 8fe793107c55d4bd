-- wrk script for the echo scenario: every request POSTs the same 1024-byte body to the URL's path (/echo).
-- wrk adds the Content-Length header itself.
wrk.method = "POST"
wrk.body = string.rep("0123456789abcdef", 64)
wrk.headers["Content-Type"] = "application/octet-stream"
