-- POSTs a small todo as JSON: the typed-JSON scenario of load.sh (decode, validate, encode).
wrk.method = "POST"
wrk.body = '{"title":"Buy milk and bread","completed":false,"order":3}'
wrk.headers["Content-Type"] = "application/json"
