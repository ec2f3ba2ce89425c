-- balancer_by_lua: picks the peer for each attempt of a request. Primaries by smooth weighted round
-- robin (state per worker, kept on the cached domain entry) or by a weighted hash of the client
-- address; backups only once every primary has failed in this request.
-- An upstream that is one of the node's own listening sockets (rampart.node_self) is never used,
-- whatever the control plane sent: a customer's origin must not reach the node's own servers.
local balancer = require "ngx.balancer"
local node_self = require "rampart.node_self"
local store = require "rampart.store"

local _M = {}

-- Peer lists built once per cached domain entry (that is, per worker and generation).
local function peers_of(domain)
  local peers = domain._peers
  if peers then return peers end
  peers = { primaries = {}, backups = {} }
  -- With the port map the port is the one the client connected to: always one of the node's.
  local port_map = domain.origin.portMap
  for _, u in ipairs(domain.origin.upstreams) do
    if node_self.is_own_address(u.ip) and (port_map or node_self.is_own_port(u.port)) then
      ngx.log(ngx.WARN, "rampart balancer: upstream ", u.ip, ":", port_map and "(port map)" or u.port,
        " of domain ", domain.id, " is this node's own listening socket: refused")
    else
      local host = u.ip
      if host:find(":", 1, true) then host = "[" .. host .. "]" end
      local list = u.backup and peers.backups or peers.primaries
      list[#list + 1] = { host = host, port = u.port, weight = u.weight, current = 0 }
    end
  end
  if #peers.primaries + #peers.backups == 1 then peers.single = peers.primaries[1] or peers.backups[1] end
  domain._peers = peers
  return peers
end

-- Smooth weighted round robin (as nginx's own), skipping the peers this request already tried.
local function pick_round_robin(list, tried)
  local best, total = nil, 0
  for i = 1, #list do
    local peer = list[i]
    if not tried[peer] then
      peer.current = peer.current + peer.weight
      total = total + peer.weight
      if best == nil or peer.current > best.current then best = peer end
    end
  end
  if best then best.current = best.current - total end
  return best
end

-- Weighted hash of the client address over the peers not tried yet: stable while they are up.
local function pick_hash(list, tried, client)
  local total = 0
  for i = 1, #list do
    if not tried[list[i]] then total = total + list[i].weight end
  end
  if total == 0 then return nil end
  local point = ngx.crc32_long(client) % total
  for i = 1, #list do
    local peer = list[i]
    if not tried[peer] then
      point = point - peer.weight
      if point < 0 then return peer end
    end
  end
  return nil
end

-- nginx's NGX_BUSY: "no live upstreams". The upstream module answers it as an origin that cannot be
-- reached: 502 (the edge's own page, with the request id), logged with 502 as its upstream status,
-- which is how the logs name an origin's failure. ngx.ERROR would end the request in 500, as for a
-- fault of the edge itself. Debian's nginx lacks OpenResty's patch that lets the balancer pick the
-- status, so "busy" is the one code that says "origin" here.
local NO_LIVE_UPSTREAM = -3

-- Every way this phase finds no peer to use is an origin problem (no address, only refused ones,
-- all tried, the domain gone or disabled by a push since routing): each answers 502.
local function fail(...)
  ngx.log(ngx.ERR, "rampart balancer: ", ...)
  return ngx.exit(NO_LIVE_UPSTREAM)
end

-- port: the port map's port (nil: the peer's own).
local function use(peer, port)
  port = port or peer.port
  local ok, err = balancer.set_current_peer(peer.host, port)
  if not ok then return fail("cannot use ", peer.host, ":", port, ": ", err) end
end

-- The port map: a client on a listener of the origin's protocol is sent to the port it connected
-- to; on the other protocol's listeners (and for every domain without the map) the peer's port.
local function mapped_port(origin)
  local var = ngx.var
  if var.scheme ~= origin.scheme then return nil end
  return tonumber(var.server_port)
end

function _M.balance()
  -- The router found the domain in this request (no ngx.ctx to build per request): the domain it
  -- routed when no other request was routed since (rampart.store request_domain), else the
  -- worker's cache's entry for the host, which a push in between may have retired: then this
  -- request fails like a dead origin.
  local domain = store.request_domain()
  if domain == nil then return fail("domain of ", ngx.var.host, " is gone") end
  -- A push in between disabled it: a disabled domain has no origin.
  if domain.origin == nil then return fail("domain ", domain.id, " is disabled") end
  local peers = peers_of(domain)
  local port = nil
  if domain.origin.portMap then port = mapped_port(domain.origin) end

  -- One upstream (the common case): nothing to remember between tries.
  if peers.single then return use(peers.single, port) end
  local count = #peers.primaries + #peers.backups
  if count == 0 then
    local why = domain.origin.unresolved and " (its host names resolve to no address an origin may have)" or ""
    return fail("domain ", domain.id, " has no upstream", why)
  end

  local ctx = ngx.ctx
  local state = ctx.rampart_balancer
  if state == nil then
    state = { tried = {} }
    ctx.rampart_balancer = state
    -- Every peer may be tried once in this request.
    balancer.set_more_tries(count - 1)
  end

  local pick, client = pick_round_robin, nil
  if domain.origin.balance == "ip_hash" then pick, client = pick_hash, ngx.var.remote_addr end
  local peer = pick(peers.primaries, state.tried, client) or pick(peers.backups, state.tried, client)
  if peer == nil then return fail("every upstream of domain ", domain.id, " failed") end
  state.tried[peer] = true
  return use(peer, port)
end

return _M
