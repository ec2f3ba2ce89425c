-- rewrite_by_lua: Host → domain, then the cheap decisions (unknown, disabled, forceSSL) and the
-- variables the proxy needs. The decoded domain goes to ngx.ctx for the balancer.
local store = require "rampart.store"
local pages = require "rampart.pages"

local _M = {}

function _M.route()
  local host = ngx.var.host -- nginx lower-cases it and strips the port
  local domain, gen = store.lookup(host)
  if gen == nil then return pages.send(503) end
  if domain == nil then return pages.send(404) end

  ngx.var.rampart_domain_id = domain.id
  if not domain.enabled then return pages.send(403) end

  if domain.forceSSL and ngx.var.scheme == "http" then
    local port = ngx.var.rampart_https_port
    local authority = port == "443" and host or (host .. ":" .. port)
    return ngx.redirect("https://" .. authority .. ngx.var.request_uri, domain.forceSSLCode)
  end

  local origin = domain.origin
  ngx.var.rampart_origin_scheme = origin.scheme
  ngx.var.rampart_upstream_host = origin.host or host
  ngx.ctx.rampart_domain = domain
end

return _M
