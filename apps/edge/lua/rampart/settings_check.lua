-- Checks a site-settings entry of the data plane again (the agent checked it with the contract's
-- zod schema: packages/contract/src/edge/data-plane.ts edgeSiteSettingsSchema), with the same
-- allowlists, and returns a clean copy holding only known fields. On failure: nil, field, reason.
local _M = {}

-- The same lists as packages/contract/src/routes/site-settings.ts.
local GZIP_TYPES = {}
for _, t in ipairs({
  "text/html", "text/plain", "text/css", "text/xml", "text/javascript", "application/javascript",
  "application/json", "application/xml", "application/rss+xml", "application/atom+xml",
  "application/manifest+json", "image/svg+xml",
}) do GZIP_TYPES[t] = true end
local PAGE_STATUSES = {}
for _, s in ipairs({ 400, 403, 404, 405, 429, 500, 502, 503, 504, 903, 904, 929, 978 }) do PAGE_STATUSES[s] = true end
local LANGUAGES = { en_US = true, zh_CN = true, zh_TW = true }
local RATE_PATTERN_RE = [[^[/*][A-Za-z0-9._~!$&'()*+,;=:@%/-]{0,255}\z]]
local MAX_RATES, MAX_KBPS, MAX_MIN_LENGTH, MAX_PAGE_BYTES = 100, 1048576, 10485760, 65536

local re_find = ngx.re.find
local checks = require "rampart.checks"
local is_int, is_list = checks.is_int, checks.is_array


local function gzip(g, path)
  if g == nil or g == ngx.null then return false end
  if type(g) ~= "table" then return nil, path, "not an object" end
  if not is_list(g.types, 12) or #g.types == 0 then return nil, path .. ".types", "not a list of 1 to 12" end
  local types = {}
  for i, t in ipairs(g.types) do
    if not GZIP_TYPES[t] then return nil, path .. ".types[" .. (i - 1) .. "]", "not a compressible type" end
    types[i] = t
  end
  if not is_int(g.minLength, 0, MAX_MIN_LENGTH) then return nil, path .. ".minLength", "not a length" end
  return { types = types, minLength = g.minLength }
end

-- A list of pages (a site's own, or the operator's default ones: `errorPages`), at most one per
-- status, each 1 byte to 64 KiB, `max_total` bytes together when given. A clean copy, or nil, field, reason.
function _M.pages(list, path, max_total)
  if not is_list(list, 13) then return nil, path, "not a list of at most 13" end
  local pages, total = {}, 0
  for i, pg in ipairs(list) do
    local at = path .. "[" .. (i - 1) .. "]"
    if type(pg) ~= "table" then return nil, at, "not an object" end
    if not PAGE_STATUSES[pg.status] then return nil, at .. ".status", "not an error page status" end
    if type(pg.body) ~= "string" or #pg.body == 0 or #pg.body > MAX_PAGE_BYTES then
      return nil, at .. ".body", "not a page of 1 to " .. MAX_PAGE_BYTES .. " bytes"
    end
    total = total + #pg.body
    pages[i] = { status = pg.status, body = pg.body }
  end
  if max_total and total > max_total then return nil, path, "pages larger than " .. max_total .. " bytes" end
  return pages
end

function _M.entry(s, path)
  if type(s) ~= "table" then return nil, path, "not an object" end
  if not is_int(s.id, 1, 2147483647) then return nil, path .. ".id", "not an id" end
  local clean_gzip, field, reason = gzip(s.gzip, path .. ".gzip")
  if clean_gzip == nil then return nil, field, reason end

  if not is_list(s.rates, MAX_RATES) then return nil, path .. ".rates", "not a list of at most " .. MAX_RATES end
  local rates = {}
  for i, r in ipairs(s.rates) do
    local at = path .. ".rates[" .. (i - 1) .. "]"
    if type(r) ~= "table" then return nil, at, "not an object" end
    local p = r.pattern
    if type(p) ~= "string" or not re_find(p, RATE_PATTERN_RE, "jo") or select(2, p:gsub("%*", "")) > 1 then
      return nil, at .. ".pattern", "not a rate pattern"
    end
    if not is_int(r.kbps, 1, MAX_KBPS) then return nil, at .. ".kbps", "not a rate in KB/s" end
    rates[i] = { pattern = p, kbps = r.kbps }
  end

  if not LANGUAGES[s.language] then return nil, path .. ".language", "not a language" end

  local pages, pages_field, pages_reason = _M.pages(s.pages, path .. ".pages")
  if pages == nil then return nil, pages_field, pages_reason end

  return { id = s.id, gzip = clean_gzip or nil, rates = rates, language = s.language, pages = pages }
end

return _M
