-- Path scopes shared by the cache rules (rampart.router) and token auth (rampart.token_auth), over
-- nginx's $uri (decoded, normalised path, no query).
local _M = {}

local unescape, lower, sub, match = ngx.unescape_uri, string.lower, string.sub, string.match

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

return _M
