-- wrk script: POST the file named by COMPARE_BODY; with SCAMCHECK_TOKEN set,
-- as JSON with that bearer token (scamcheckd), else as is (rspamd /checkv2).
local f = assert(io.open(os.getenv("COMPARE_BODY"), "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
local token = os.getenv("SCAMCHECK_TOKEN")
if token then
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Authorization"] = "Bearer " .. token
end
