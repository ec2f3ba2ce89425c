-- Purging cached URLs (POST /cache/purge on the admin endpoint, body {"urls": [...]}).
--
-- For each URL: the domain its host routes to now, that domain's cache policy, and the cache keys
-- a request for the URL was stored under — "<epoch>:<generation>|<host><path>" and, when the URL
-- has a query, the same with "?<query>" (which of the two a rule used depends on its query-string
-- setting, so both go). <path> is what nginx's $uri would be: percent-decoded, slashes merged.
-- Each key is removed by ngx_cache_purge (libnginx-mod-http-cache-purge) in the internal location
-- /rampart-purge, which deletes the file and nginx's shared-memory entry together.
local store = require "rampart.store"
local router = require "rampart.router"

local _M = {}

local MAX_URLS = 100
local URL_RE = [[^(https?)://([^/?#@]+)([^?#]*)(?:\?([^#]*))?(?:#.*)?\z]]

local function result(url, ok, purged, message)
  return { url = url, ok = ok, httpStatus = ngx.null, cacheStatus = ngx.null, purged = purged, message = message }
end

local function purge_key(key)
  local res = ngx.location.capture("/rampart-purge", { vars = { rampart_purge_key = key } })
  if res.status == 200 then return true end
  if res.status == 404 then return false end
  return nil, "purge answered " .. res.status
end

local function purge_url(url)
  if type(url) ~= "string" or #url > 2048 then return result(tostring(url), false, 0, "not a URL") end
  local m = ngx.re.match(url, URL_RE, "jo")
  if m == nil then return result(url, false, 0, "not an http(s) URL") end
  local host = m[2]:lower():gsub(":%d+$", "")
  local path = m[3] ~= "" and m[3] or "/"
  local query = m[4] or ""
  local domain, gen = store.lookup(host)
  if gen == nil then return result(url, false, 0, "no configuration on this node yet") end
  if domain == nil then return result(url, false, 0, "no domain of this node serves " .. host) end
  if not domain.cacheId then return result(url, true, 0, "the domain caches nothing") end
  local policy = store.cache_policy(gen, domain.cacheId)
  if policy == nil then return result(url, true, 0, "the domain caches nothing") end

  local uri = ngx.unescape_uri(path):gsub("//+", "/")
  local prefix = router.cache_key_prefix(store.cache_epoch(gen), policy) .. host .. uri
  local keys = { prefix }
  if query ~= "" then keys[2] = prefix .. "?" .. query end
  local purged = 0
  for _, key in ipairs(keys) do
    local removed, err = purge_key(key)
    if removed == nil then return result(url, false, purged, err) end
    if removed then purged = purged + 1 end
  end
  return result(url, true, purged, purged > 0 and "purged" or "not in the cache")
end

-- urls → list of per-URL results (edge/cache-urls.ts cacheUrlResultSchema), or nil, reason.
function _M.urls(urls)
  if type(urls) ~= "table" or #urls == 0 or #urls > MAX_URLS then
    return nil, "urls: not a list of 1 to " .. MAX_URLS
  end
  local results = {}
  for i, url in ipairs(urls) do results[i] = purge_url(url) end
  return results
end

return _M
