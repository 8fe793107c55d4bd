-- wrk script for the echo-varied scenario: the echo of echo-1k.lua, with one header that differs on every request
-- (x-request-id: a counter), as a client that sends trace or request ids does. No two consecutive heads on a
-- connection are alike, so the server cannot take a head for a repetition of the last: the figure for real clients
-- beside echo's, whose identical heads are wrk's alone.
local body = string.rep("0123456789abcdef", 64)
local headers = { ["Content-Type"] = "application/octet-stream" }
local counter = 0

request = function()
  counter = counter + 1
  headers["x-request-id"] = tostring(counter)
  return wrk.format("POST", nil, headers, body)
end
