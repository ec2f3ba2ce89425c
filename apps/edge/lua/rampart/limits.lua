-- Zone limits (docs/decisions.md "Zone limits"; packages/contract/src/routes/zones.ts), per client IP
-- and per node, counted in fixed 60-second windows in the `rampart_limits` shared dict:
--
--   invalidDomainPerMinute  requests for a Host no domain of the data plane matches (the router's
--                           "unknown host" answer). The request that goes over it, and every request
--                           of that IP to any host for the next 300 s, get their connection closed
--                           unanswered (444, in the access log like the edge's other answers): a
--                           scanner walking IPs with random Host headers; real visitors never hit
--                           unknown hosts.
--   tlsHandshakesPerMinute  full TLS handshakes (ssl_certificate_by_lua, which session resumption
--                           skips). Over it the handshake is aborted until the window ends: floods of
--                           handshakes cost the node CPU.
-- 0 turns a limit off. The numbers come from the generation's meta entry, read once per worker and
-- generation (store.on_generation); with the unknown-host limit off the router pays one boolean
-- check (`_M.http`), with it on one shared-dict get per request (the ban).
--
-- Keys: "<ip>" a banned address (value true, 300 s); "u:<ip>" unknown-host requests of the window;
-- "t:<raw address>" full handshakes of the window (the binary address: ngx.var is not available
-- while the certificate is chosen). A full dict evicts the oldest counters.
local ssl = require "ngx.ssl"
local store = require "rampart.store"
local escalate = require "rampart.escalate"

local _M = {
  -- The router's one check: the unknown-host limit is on in the active generation.
  http = false,
}

local WINDOW, BAN = 60, 300
local dict = ngx.shared.rampart_limits
local loaded_gen, invalid_limit, tls_limit = nil, 0, 0

-- Reads the limits of generation `gen` (its meta entry written by rampart.admin). A meta entry that
-- is gone already (retired by a push meanwhile) leaves the generation unread: the next request
-- brings the newer one.
function _M.load(gen)
  if gen == loaded_gen then return end
  local meta = store.meta(gen)
  if meta == nil then return end
  local limits = type(meta.limits) == "table" and meta.limits or {}
  invalid_limit = tonumber(limits.invalidDomainPerMinute) or 0
  tls_limit = tonumber(limits.tlsHandshakesPerMinute) or 0
  escalate.configure(limits)
  -- Without the dict (an nginx.conf rendered before it existed) the limits cannot count: off.
  if dict == nil then invalid_limit, tls_limit = 0, 0 end
  _M.http = invalid_limit > 0
  loaded_gen = gen
end

-- A new generation met by this worker's lookups reloads the limits (not per request).
store.on_generation = _M.load

-- The router's check when `_M.http`: true when the request's connection is to be closed unanswered.
-- `domain` is the router's lookup result, nil for an unknown host.
function _M.refuse(var, domain)
  local ip = var.remote_addr
  if dict:get(ip) then return true end
  if domain ~= nil then return false end
  local count = dict:incr("u:" .. ip, 1, 0, WINDOW)
  -- A dict that cannot count (no memory even after eviction) lets the request through.
  if count == nil or count <= invalid_limit then return false end
  dict:set(ip, true, BAN)
  ngx.log(ngx.WARN, "rampart limits: ", ip, " sent more than ", invalid_limit,
    " requests for unknown hosts in ", WINDOW, " s; its requests are closed for ", BAN, " s")
  return true
end

-- "a.b.c.d" or eight hex groups, for the error log.
local function address_text(raw, kind)
  if kind == "inet" then return string.format("%d.%d.%d.%d", raw:byte(1, 4)) end
  local groups = {}
  for i = 1, #raw - 1, 2 do groups[#groups + 1] = string.format("%x", raw:byte(i) * 256 + raw:byte(i + 1)) end
  return table.concat(groups, ":")
end

-- ssl_certificate_by_lua (rampart.certs), once per full handshake: false when the client's address
-- has used up its handshakes of the window.
function _M.handshake()
  local gen = store.generation()
  if gen ~= nil and gen ~= loaded_gen then _M.load(gen) end
  if tls_limit == 0 then return true end
  local raw, kind = ssl.raw_client_addr()
  if raw == nil or kind == "unix" then return true end
  local count = dict:incr("t:" .. raw, 1, 0, WINDOW)
  if count == nil or count <= tls_limit then return true end
  if count == tls_limit + 1 then
    ngx.log(ngx.WARN, "rampart limits: ", address_text(raw, kind), " made more than ", tls_limit,
      " TLS handshakes in ", WINDOW, " s; further ones are aborted until the window ends")
  end
  return false
end

return _M
