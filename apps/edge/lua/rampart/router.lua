-- Host → domain, and what nginx does with the request. Two steps (see render.ts):
--
-- route() runs in set_by_lua for every request and answers
--   ""        proxy to the domain's HTTP origin: the hot path, one `if` and proxy_pass in nginx.conf
--   anything else: nginx hands the request to @rampart_route, where elsewhere() acts on it:
--   "https"   proxy to the domain's HTTPS origin
--   "404", "403", "503"          the edge's own page for that status
--   "301", "302", "307", "308"   the forceSSL redirect
-- set_by_lua runs without a coroutine of its own, which is measurably cheaper per request than
-- rewrite_by_lua; nothing here yields. It writes as few nginx variables as it can (each write is a
-- hash lookup in nginx): the domain id for the access log, and the Host sent upstream only when the
-- domain overrides it ($rampart_host_header falls back to $host).
local store = require "rampart.store"
local pages = require "rampart.pages"

local _M = {}

-- Request ids: "<node>-<worker pid>-<serial>", unique on the node while the worker lives (a new
-- worker has a new pid). Instead of $request_id, whose per-request call into OpenSSL's RNG cost
-- ~13% of the edge's CPU per request, and of an nginx-side "$pid-$connection-..." whose number
-- formatting cost ~2,500 instructions (bench/README.md).
local id_prefix, serial = nil, 0

function _M.route()
  local var = ngx.var
  if id_prefix == nil then id_prefix = (var.rampart_node or "edge") .. "-" .. ngx.worker.pid() .. "-" end
  serial = serial + 1
  var.rampart_request_id = id_prefix .. serial
  local domain, gen = store.lookup(var.host) -- nginx lower-cases the host and strips the port
  if gen == nil then return "503" end
  if domain == nil then return "404" end

  var.rampart_domain_id = domain._id
  if not domain.enabled then return "403" end
  if domain.forceSSL and var.scheme == "http" then return domain._redirect_code end

  local origin = domain.origin
  if origin.host then var.rampart_upstream_host = origin.host end
  if origin.scheme ~= "http" then return "https" end
  return ""
end

-- rewrite_by_lua in @rampart_route. Returning lets nginx proxy to the HTTPS origin pool.
function _M.elsewhere()
  local var = ngx.var
  local route = var.rampart_route
  if route == "https" then return end
  local status = tonumber(route)
  if status and status >= 300 and status < 400 then
    local host, port = var.host, var.rampart_https_port
    local authority = port == "443" and host or (host .. ":" .. port)
    return ngx.redirect("https://" .. authority .. var.request_uri, status)
  end
  return pages.send(status or 500)
end

return _M
