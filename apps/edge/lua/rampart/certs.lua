-- ssl_certificate_by_lua: the zone's handshake limit (rampart.limits), then SNI → domain → its
-- certificate, parsed once per worker per (cache epoch, certificate): a changed certificate starts
-- a new epoch (rampart.store). No SNI, an unknown name or a
-- domain without a certificate keep the default one.
local ssl = require "ngx.ssl"
local lrucache = require "resty.lrucache"
local store = require "rampart.store"
local limits = require "rampart.limits"

local _M = {}

local parsed = assert(lrucache.new(2000))

local function load(gen, id)
  local pem = store.certificate(gen, id)
  if type(pem) ~= "table" then return false end
  local cert, cert_err = ssl.parse_pem_cert(pem.cert)
  local key, key_err = ssl.parse_pem_priv_key(pem.key)
  if cert == nil or key == nil then
    ngx.log(ngx.ERR, "rampart certs: certificate ", id, " does not parse: ", cert_err or key_err)
    return false
  end
  return { cert = cert, key = key }
end

function _M.set_certificate()
  -- The zone's TLS handshake limit (rampart.limits): counted before anything else, SNI or not.
  if not limits.handshake() then return ngx.exit(ngx.ERROR) end
  local name = ssl.server_name()
  if name == nil then return end
  name = name:lower()
  local domain, gen = store.lookup(name)
  if domain == nil or domain.certificateId == nil then return end

  local cache_key = store.epoch .. " " .. domain.certificateId
  local pair = parsed:get(cache_key)
  if pair == nil then
    pair = load(gen, domain.certificateId)
    parsed:set(cache_key, pair)
  end
  if not pair then return end

  local ok, err = ssl.clear_certs()
  if ok then ok, err = ssl.set_cert(pair.cert) end
  if ok then ok, err = ssl.set_priv_key(pair.key) end
  if not ok then
    ngx.log(ngx.ERR, "rampart certs: cannot set certificate ", domain.certificateId, ": ", err)
    return ngx.exit(ngx.ERROR)
  end
end

return _M
