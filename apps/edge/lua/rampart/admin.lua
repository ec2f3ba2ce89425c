-- The admin endpoint (content_by_lua on nginx's admin server, a unix socket in a directory only the
-- agent's user can enter). Every request carries `Authorization: Bearer <the node's admin secret>`:
-- the secret file (written by the agent, readable by it and root only) is read by the master at
-- start and reload (configure, from init_by_lua) and lives in the workers' memory only.
--   PUT /config          the whole data-plane document → {version, domains, certificates, generation, hash}
--   PATCH /config        the entries that changed (a delta of the data plane) → the same, with `sum`
--   GET /config/version  the active {version, generation, domains, certificates, hash, sum}
--   GET /config/stats    keys in the shared dict (entries, superseded records), capacity and free space
--   POST /config/gc      collects superseded records now (a timer does it 10 s after each apply)
--   POST /cache/purge    {urls} → {results} (rampart.purge)
--   GET /blocklist/events    pops up to 1,000 queued block reports → {events, dropped, full} (rampart.blocklist)
--   POST /blocklist/unblock  {entries: [{siteId, ip}]} → {removed}: those blocks end now
--   PUT /challenge/pool      the agent's image pool {id, code, slider} → {id, codes, sliders} (rampart.challenge_pool)
--   GET /challenge/pool      the current pool's {id, age}; 404 when the node has none
--   GET /refusals            pops up to 5,000 refusal tallies → {tallies, more, dropped} (rampart.refusals)
-- An apply (a whole document or a delta) writes its records as the next version, then moves
-- `current` to it (rampart.store): a request reads `current` once and sees the whole old or the
-- whole new data plane, never a mix (rampart.store_apply).
local cjson = require "cjson.safe"
local store = require "rampart.store"
local validate = require "rampart.validate"
local store_apply = require "rampart.store_apply"

local _M = {}

local dict = store.dict
local record_state = store.record_state
local SECRET_RE = [[^[0-9a-f]{64}\z]]

-- The admin secret (set in the master) and its SHA-1 (computed once per worker): requests are
-- compared by digest, so the comparison's time says nothing about the secret.
local secret, secret_digest = nil, nil

local function hex(bin)
  return (bin:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

-- init_by_lua (master): reads the admin secret. A missing or malformed file stops nginx from
-- starting (nginx -t reports it), rather than leaving an endpoint nobody can use.
function _M.configure(secret_file)
  local file, err = io.open(secret_file, "rb")
  if file == nil then error("rampart admin: cannot read the admin secret: " .. tostring(err)) end
  local text = file:read("*a") or ""
  file:close()
  text = text:gsub("%s+$", "")
  if not ngx.re.find(text, SECRET_RE, "jo") then error("rampart admin: " .. secret_file .. " holds no admin secret") end
  secret, secret_digest = text, nil
end

local function authorized()
  if secret == nil then return false end
  local given = ngx.var.http_authorization
  if type(given) ~= "string" or given:sub(1, 7) ~= "Bearer " then return false end
  if secret_digest == nil then secret_digest = ngx.sha1_bin(secret) end
  return ngx.sha1_bin(given:sub(8)) == secret_digest
end

-- `body`: a table, or a JSON text a module built (the block reports', the refusal tallies').
local function respond(status, body)
  ngx.status = status
  ngx.header["Content-Type"] = "application/json"
  ngx.header["Cache-Control"] = "no-store"
  ngx.say(type(body) == "string" and body or cjson.encode(body))
  return ngx.exit(ngx.HTTP_OK)
end

local function read_body()
  ngx.req.read_body()
  local body = ngx.req.get_body_data()
  if body then return body end
  local path = ngx.req.get_body_file()
  if path == nil then return nil end
  local file = io.open(path, "rb")
  if file == nil then return nil end
  body = file:read("*a")
  file:close()
  return body
end

-- A whole document (the snapshot path) → the ops of a push that replaces everything.
local function document_ops(doc)
  local ops = {}
  local function add(kk, value) ops[#ops + 1] = { kk, "", value } end
  for _, d in ipairs(doc.domains) do add("d:" .. d.name, d) end
  for _, c in ipairs(doc.certificates) do add("c:" .. c.id, { cert = c.cert, key = c.key }) end
  for _, c in ipairs(doc.caches) do add("p:" .. c.id, c) end
  for _, m in ipairs(doc.modules) do add("m:" .. m.id, m) end
  for _, c in ipairs(doc.settings) do add("s:" .. c.id, c) end
  for _, f in ipairs(doc.firewalls) do add("f:" .. f.id, f) end
  for _, a in ipairs(doc.acmeChallenges) do add("a:" .. a.host .. "/" .. a.token, a.keyAuthorization) end
  -- Without challenge keys (no site of the node challenges) or pages, no entry for them.
  if #doc.challenge.keys > 0 then add("x:", doc.challenge) end
  if #doc.errorPages > 0 then add("pages:", doc.errorPages) end
  add("n:", { cacheEpoch = doc.cacheEpoch })
  return ops
end

local function put_config()
  local body = read_body()
  if body == nil or body == "" then return respond(400, { error = "empty body", field = "(document)" }) end
  local decoded, decode_err = cjson.decode(body)
  if decoded == nil then return respond(400, { error = "invalid JSON: " .. decode_err, field = "(document)" }) end
  local doc, field, reason = validate.document(decoded)
  if doc == nil then return respond(400, { error = reason, field = field }) end
  return respond(store_apply.locked(doc.version, document_ops(doc), {
    reset = true,
    hash = hex(ngx.sha1_bin(body)),
    meta = { limits = doc.limits, geoDatabase = doc.geoDatabase, abuseIPs = doc.abuseIPs },
  }))
end

-- PATCH /config {version, from, reset, meta: {limits, geoDatabase, abuseIPs}, ops: [[kk, hash, value|null]]}:
-- the entries that changed (docs/data-plane-deltas.md "Edge"), each with its 48-bit hash; the
-- answer's `sum` is the sum of the live entries' hashes, for the agent to compare with its own.
local HASH_RE = [[^[0-9a-f]{12}\z]]
local function patch_config()
  local body = read_body()
  local decoded, decode_err = cjson.decode(body or "")
  if type(decoded) ~= "table" then
    return respond(400, { error = "invalid JSON: " .. tostring(decode_err), field = "(delta)" })
  end
  if not validate.version(decoded.version) then return respond(400, { error = "not a version token", field = "version" }) end
  local from = decoded.from
  if from == cjson.null then from = nil end
  if from ~= nil and (type(from) ~= "number" or from < 0 or from % 1 ~= 0) then
    return respond(400, { error = "not a version number", field = "from" })
  end
  local reset = decoded.reset == true
  local meta, mfield, mreason = validate.delta_meta(decoded.meta)
  if meta == nil then return respond(400, { error = mreason, field = mfield }) end
  local raw_ops = decoded.ops
  if type(raw_ops) ~= "table" or (next(raw_ops) ~= nil and #raw_ops == 0) then
    return respond(400, { error = "not a list", field = "ops" })
  end
  -- Module types the delta brings, for its domains' references (the node's for the others).
  local batch_types = {}
  for _, op in ipairs(raw_ops) do
    if type(op) == "table" and type(op[1]) == "string" and op[1]:sub(1, 2) == "m:" and type(op[3]) == "table" then
      batch_types[op[3].id] = op[3].type
    end
  end
  local current = store.generation() or 0
  local function module_type(id)
    if batch_types[id] ~= nil then return batch_types[id] end
    local m = store.module(current, id)
    return m and m.type or nil
  end
  local ops = {}
  for i, op in ipairs(raw_ops) do
    local path = "ops[" .. (i - 1) .. "]"
    if type(op) ~= "table" or type(op[1]) ~= "string" or #op[1] > 320 or op[1] == "meta:" then
      return respond(400, { error = "not [key, hash, value]", field = path })
    end
    if type(op[2]) ~= "string" or not ngx.re.find(op[2], HASH_RE, "jo") then
      return respond(400, { error = "not a 48-bit hash in hex", field = path .. "[1]" })
    end
    local value = op[3]
    if value == cjson.null or value == nil then
      value = nil
      if not op[1]:find(":", 1, true) then return respond(400, { error = "not <kind>:<id>", field = path }) end
    else
      local clean, field, reason = validate.entry(op[1], value, module_type)
      if clean == nil then return respond(400, { error = reason, field = path .. " " .. tostring(field) }) end
      value = clean
    end
    ops[i] = { op[1], op[2], value }
  end
  return respond(store_apply.locked(decoded.version, ops, { reset = reset, from = from, hashed = true, meta = meta }))
end

local function active_meta()
  local gen = store.generation()
  if gen == nil then return nil end
  local meta = store.read(gen, "meta:")
  return type(meta) == "table" and meta or nil
end

local function stats()
  local total, entries, previous, deleted, lists = 0, 0, 0, 0, 0
  for _, key in ipairs(dict:get_keys(0)) do
    total = total + 1
    if key:find("^%x+|e|") then
      local _, live = record_state(dict:get(key))
      if live then entries = entries + 1 else deleted = deleted + 1 end
    elseif key:find("^%x+|p|") then
      previous = previous + 1
    elseif key:find("^c|") then
      lists = lists + 1
    end
  end
  local meta = active_meta()
  return respond(200, {
    generation = store.generation() or cjson.null,
    version = meta and meta.version or cjson.null,
    keys = total,
    entries = entries, -- live entries, the meta included
    previous = previous, -- records kept for requests that started before their change
    deleted = deleted, -- deletions not collected yet
    changeLists = lists,
    capacity = dict:capacity(),
    free = dict:free_space(),
  })
end

local function purge()
  local decoded = cjson.decode(read_body() or "")
  if type(decoded) ~= "table" then return respond(400, { error = "invalid JSON", field = "(body)" }) end
  local results, reason = require("rampart.purge").urls(decoded.urls)
  if results == nil then return respond(400, { error = reason, field = "urls" }) end
  return respond(200, { results = results })
end

local function unblock()
  local decoded = cjson.decode(read_body() or "")
  local removed, field, reason = require("rampart.blocklist").unblock(decoded)
  if removed == nil then return respond(400, { error = reason, field = field }) end
  return respond(200, { removed = removed })
end

local function put_pool()
  local decoded = cjson.decode(read_body() or "")
  local answer, field, reason = require("rampart.challenge_pool").put(decoded)
  if answer == nil then return respond(400, { error = reason, field = field }) end
  return respond(200, answer)
end

local function pool_status()
  local status = require("rampart.challenge_pool").status()
  if status == nil then return respond(404, { error = "no challenge pool pushed yet" }) end
  return respond(200, status)
end

function _M.handle()
  if ngx.var.remote_addr ~= "unix:" then return respond(403, { error = "admin socket only" }) end
  if not authorized() then return respond(401, { error = "admin secret required" }) end
  local method, uri = ngx.req.get_method(), ngx.var.uri
  if uri == "/config" and method == "PUT" then return put_config() end
  if uri == "/config" and method == "PATCH" then return patch_config() end
  if uri == "/config/gc" and method == "POST" then
    -- Collects every superseded record now (tests; rampart.store_apply's timer does it 10 s after an apply).
    return respond(store_apply.collect_now())
  end
  if uri == "/config/version" and method == "GET" then
    local meta = active_meta()
    if meta == nil then return respond(404, { error = "no data plane pushed yet" }) end
    return respond(200, meta)
  end
  if uri == "/config/stats" and method == "GET" then return stats() end
  if uri == "/cache/purge" and method == "POST" then return purge() end
  if uri == "/blocklist/events" and method == "GET" then return respond(200, require("rampart.blocklist").pop()) end
  if uri == "/refusals" and method == "GET" then return respond(200, require("rampart.refusals").drain()) end
  if uri == "/blocklist/unblock" and method == "POST" then return unblock() end
  if uri == "/challenge/pool" and method == "PUT" then return put_pool() end
  if uri == "/challenge/pool" and method == "GET" then return pool_status() end
  return respond(404, { error = "not found" })
end

return _M
