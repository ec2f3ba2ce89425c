-- Path scopes shared by the cache rules (rampart.router) and token auth (rampart.token_auth), over
-- nginx's $uri (decoded, normalised path, no query).
local _M = {}

local unescape, lower, sub, match = ngx.unescape_uri, string.lower, string.sub, string.match
local ffi_string = require("ffi").string

-- A directory value → { exact, prefix }: "/live" covers "/live" and "/live/...", not "/lively".
function _M.directory(value)
  local dir = unescape(value)
  local slash = sub(dir, -1) == "/"
  return { exact = slash and sub(dir, 1, -2) or dir, prefix = slash and dir or dir .. "/" }
end

function _M.in_directory(dir, uri)
  return uri == dir.exact or sub(uri, 1, #dir.prefix) == dir.prefix
end

-- The extension of the path's last segment, lower-cased, or nil.
function _M.extension(uri)
  local ext = match(uri, "%.([^./]+)$")
  return ext and lower(ext)
end

-- The same for the path a rampart.request_url reader read in place (`len` its length): one longer
-- than `max` bytes (longer than any value it is compared with) stays nil, so no long Lua string is
-- made from the client's path.
function _M.extension_at(uri, len, max)
  local p, j = uri.pointer(), len - 1
  while j >= 0 do
    local c = p[j]
    if c == 46 or c == 47 then break end
    j = j - 1
  end
  if j < 0 or p[j] == 47 or j == len - 1 or len - 1 - j > max then return nil end
  return lower(ffi_string(p + j + 1, len - 1 - j))
end

-- Whether the path a reader read lies in the directory `dir` (in_directory, compared in place).
function _M.in_directory_at(dir, uri)
  return uri.equals(dir.exact) or uri.starts(dir.prefix)
end

return _M
