-- The HTML pages the edge answers with itself. Static text only: no host, path or internals.
local _M = {}

local MESSAGES = {
  [403] = { "Domain disabled", "This domain is disabled on this service." },
  [404] = { "Domain not found", "This domain is not served here." },
  [500] = { "Internal error", "The edge could not handle this request. It has been logged." },
  [502] = { "Bad gateway", "The origin server could not be reached." },
  [503] = { "Not configured", "This edge node has no configuration yet." },
  [504] = { "Gateway timeout", "The origin server did not answer in time." },
}

local PAGES = {}
for status, m in pairs(MESSAGES) do
  PAGES[status] = table.concat({
    "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>", status, " ", m[1], "</title></head>\n",
    "<body style=\"font-family:sans-serif;text-align:center;padding-top:10%\">\n",
    "<h1>", status, " ", m[1], "</h1>\n<p>", m[2], "</p>\n",
    "<hr><p style=\"color:#888\">Rampart</p>\n</body></html>\n",
  })
end

-- Sends the page for `status` and ends the request (any phase that may send a body).
function _M.send(status)
  ngx.status = status
  ngx.header["Content-Type"] = "text/html; charset=utf-8"
  ngx.header["Cache-Control"] = "no-store"
  ngx.print(PAGES[status] or PAGES[500])
  return ngx.exit(ngx.HTTP_OK)
end

-- Used by the error_page named locations (502, 504, 500 from a Lua error).
function _M.send_error(status)
  return _M.send(status)
end

return _M
