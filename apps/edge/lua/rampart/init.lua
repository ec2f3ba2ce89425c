-- init_by_lua: load every module in the master so the workers inherit them (they run as an
-- unprivileged user and never read Lua files themselves). It deliberately touches no data: the
-- shared dict survives a reload and holds what the agent pushed.
-- options (rendered into nginx.conf by the agent): admin_secret_file, the path of the admin secret
-- (rampart.admin); own_ports, own_addresses and every_address, the node's listening sockets no
-- origin may be (rampart.node_self).
local _M = {}

function _M.master(options)
  options = options or {}
  require("rampart.node_self").configure(options.own_ports, options.own_addresses, options.every_address)
  if options.admin_secret_file then require("rampart.admin").configure(options.admin_secret_file) end
  if options.geo_dir then require("rampart.firewall_geo").configure(options.geo_dir) end
  if options.reputation_dir then require("rampart.firewall_reputation").configure(options.reputation_dir) end
  require "rampart.store"
  require "rampart.limits"
  require "rampart.settings"
  require "rampart.challenge"
  require "rampart.firewall"
  require "rampart.pages"
  require "rampart.validate"
  require "rampart.router"
  require "rampart.modules"
  require "rampart.filters"
  require "rampart.balancer"
  require "rampart.certs"
  require "rampart.admin"
  require "rampart.purge"
  require "rampart.refusals"
  require "rampart.contract_limits"
  -- The one global: what the per-request chunks in nginx.conf call. A `require` there would be a
  -- call into C on every request (~700 instructions per request for the two chunks, bench/).
  rampart = {
    route = require("rampart.router").route,
    balance = require("rampart.balancer").balance,
    refusal = require("rampart.refusals").log,
  }
  -- Bench only (rampart.profile): set by bench/edge's init hook, never by the agent.
  if RAMPART_PROFILE == true then _M.profile() end
end

-- Wraps the per-request entry points with rampart.profile's CPU clocks (nothing of this runs on a node).
function _M.profile()
  local profile = require "rampart.profile"
  local router, pages = require "rampart.router", require "rampart.pages"
  local modules, filters = require "rampart.modules", require "rampart.filters"
  local firewall, waf = require "rampart.firewall", require "rampart.waf"
  firewall.check = profile.nested("rewrite.firewall", firewall.check)
  waf.check = profile.nested("rewrite.waf", waf.check)
  rampart.route = profile.wrap("rewrite", rampart.route)
  rampart.balance = profile.wrap("balancer", rampart.balance)
  rampart.refusal = profile.wrap("log_refusal", rampart.refusal)
  router.elsewhere = profile.wrap("rewrite_route", router.elsewhere)
  pages.send_error = profile.wrap("content_error_page", pages.send_error)
  modules.rewrite = profile.wrap("rewrite_modules", modules.rewrite)
  filters.header = profile.wrap("header_filter", filters.header)
  filters.body = profile.wrap("body_filter", filters.body)
  profile.wrap_exits()
end

return _M
