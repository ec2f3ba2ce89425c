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
-- whole new data plane, never a mix.
local cjson = require "cjson.safe"
local store = require "rampart.store"
local validate = require "rampart.validate"

local _M = {}

local dict = store.dict
local LOCK_TTL = 120
local YIELD_EVERY = 1000
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

-- Lets the worker serve other requests during a long push (50,000 domains take about a second).
local function yield()
  ngx.sleep(0)
end

local slot_key, version_of, record = store.slot_key, store.version_of, store.record
local SYNC_KEEP = 64 -- change lists kept (rampart.store's workers sync through them)
local GC_GRACE = 10 -- seconds a superseded record stays readable for requests that started before

local record_state = store.record_state

local function hex_number(h)
  return type(h) == "string" and #h == 12 and tonumber(h, 16) or nil
end
local MOD = 2 ^ 48

-- Superseded records of version v go once every request reads v or later (see the top of
-- rampart.store): the record before an entry rewritten at v, and an entry deleted at v.
local function collect(v)
  local list = dict:get("c|" .. v)
  local names
  if list == "*" then
    names = {}
    for _, key in ipairs(dict:get_keys(0)) do
      local kk = key:match("^%x+|e|(.*)$")
      if kk then names[#names + 1] = kk end
    end
  else
    names = cjson.decode(list or "") or {}
  end
  for i, kk in ipairs(names) do
    local ek = slot_key("e", kk)
    local raw = dict:get(ek)
    if raw ~= nil and version_of(raw) <= v then
      dict:delete(slot_key("p", kk))
      local _, live = record_state(raw)
      if not live then dict:delete(ek) end
    end
    if i % YIELD_EVERY == 0 then yield() end
  end
end

-- Runs the collections that are due (grace seconds after their version became current). Many due
-- at once, or one of a whole push, are one scan at the newest of them (it covers the older ones).
local SCAN_AT = 16
local function collect_due(grace)
  local due = cjson.decode(dict:get("gc") or "") or {}
  local now, keep, ready = ngx.now(), {}, {}
  local current = store.generation() or 0
  for _, item in ipairs(due) do
    if now - item[2] >= grace and item[1] <= current then
      ready[#ready + 1] = item[1]
    else
      keep[#keep + 1] = item
    end
  end
  local scan = #ready >= SCAN_AT
  for _, v in ipairs(ready) do
    if dict:get("c|" .. v) == "*" then scan = true end
  end
  if scan then
    local newest = 0
    for _, v in ipairs(ready) do newest = math.max(newest, v) end
    dict:set("c|" .. newest, "*")
    collect(newest)
  else
    for _, v in ipairs(ready) do collect(v) end
  end
  dict:set("gc", cjson.encode(keep))
end

-- Runs fn(...) under the push lock (one apply or collection at a time, across workers): false when
-- another holds it, else true and what pcall(fn, ...) answers. `holder` is what the lock names.
local function under_lock(holder, fn, ...)
  if not dict:safe_add("push_lock", holder, LOCK_TTL) then return false end
  local results = { pcall(fn, ...) }
  dict:delete("push_lock")
  return true, unpack(results, 1, table.maxn(results))
end

local function collect_later()
  ngx.timer.at(GC_GRACE + 1, function(premature)
    if premature then return end
    under_lock("gc", collect_due, GC_GRACE) -- held by a push: the next apply collects
  end)
end

-- An apply a worker did not finish (it died half-way): every record it wrote goes back.
local function repair(pending)
  for _, key in ipairs(dict:get_keys(0)) do
    local kk = key:match("^%x+|e|(.*)$")
    if kk then
      local raw = dict:get(key)
      if raw ~= nil and version_of(raw) >= pending then
        local pk = slot_key("p", kk)
        local before = dict:get(pk)
        if before ~= nil and version_of(before) < pending then
          dict:set(key, before)
          dict:delete(pk)
        else
          dict:delete(key)
        end
      end
    end
  end
  dict:delete("c|" .. pending)
  dict:delete("pending")
end

-- Writes `ops` ({kk, hash, clean value or nil}) as the next version and makes it current: every
-- record is written before `current` moves, and a failure puts every record back, so requests see
-- all of it or none. `reset`: the ops are the whole data plane (every other entry is deleted).
-- `from`: the version the caller built on (nil: any). Returns status, body.
local function apply(version, ops, opts)
  local interrupted = dict:get("pending")
  if interrupted then repair(interrupted) end
  collect_due(GC_GRACE)

  local previous = store.generation() or 0
  if opts.from ~= nil and opts.from ~= previous then
    return 409, { error = "the data plane is at another version", generation = previous }
  end
  local old_meta = store.read(previous, "meta:")
  if not opts.reset and (type(old_meta) ~= "table" or (opts.hashed and old_meta.sum == nil)) then
    return 409, { error = "no data plane to change: push a whole one", generation = previous }
  end
  local v = previous + 1
  assert(dict:safe_set("pending", v))

  local undo = {}
  local counts, sum
  if opts.reset then
    -- A whole document's records carry no hashes: no sum to keep (a delta needs a reset first).
    counts, sum = { d = 0, c = 0, a = 0 }, opts.hashed and 0 or nil
  else
    counts = { d = old_meta.domains or 0, c = old_meta.certificates or 0, a = old_meta.acmeCount or 0 }
    sum = opts.hashed and hex_number(old_meta.sum) or nil
  end
  local written = {}
  local ok, err = true, nil

  local function write(i, kk, hash, value)
    local ek, pk = slot_key("e", kk), slot_key("p", kk)
    local old = dict:get(ek)
    if old ~= nil and version_of(old) == v then
      -- Named twice in one apply: the first write's bookkeeping is undone below by the caller.
      local ok2, err2 = dict:safe_set(ek, record(i, v, hash, value))
      return ok2, err2, old
    end
    undo[#undo + 1] = { ek, old, pk, dict:get(pk) }
    if old ~= nil then
      local ok1, err1 = dict:safe_set(pk, old)
      if not ok1 then return ok1, err1 end
    end
    local ok2, err2 = dict:safe_set(ek, record(i, v, hash, value))
    return ok2, err2, old
  end

  for i, op in ipairs(ops) do
    local kk, hash, value = op[1], op[2], op[3]
    local live = value ~= nil
    local old
    ok, err, old = write(i, kk, hash, live and value or cjson.null)
    if not ok then break end
    written[kk] = true
    local kind = kk:match("^(%a+):")
    local old_hash, old_live = record_state(old)
    if opts.reset and old ~= nil and version_of(old) ~= v then old_live, old_hash = false, nil end
    if counts[kind] then counts[kind] = counts[kind] + (live and 1 or 0) - (old_live and 1 or 0) end
    if sum ~= nil then
      if old_live then sum = sum - (hex_number(old_hash) or 0) end
      if live then sum = sum + (hex_number(hash) or 0) end
      sum = sum % MOD
    end
    if i % YIELD_EVERY == 0 then yield() end
  end

  -- A whole push deletes every entry it does not name.
  if ok and opts.reset then
    local i = #ops
    for _, key in ipairs(dict:get_keys(0)) do
      local kk = key:match("^%x+|e|(.*)$")
      if kk and kk ~= "meta:" and not written[kk] then
        local _, live = record_state(dict:get(key))
        if live then
          i = i + 1
          ok, err = write(i, kk, "", cjson.null)
          if not ok then break end
          if i % YIELD_EVERY == 0 then yield() end
        end
      end
    end
  end

  local meta = {
    version = version, generation = v, domains = counts.d, certificates = counts.c, acme = counts.a > 0,
    acmeCount = counts.a, limits = opts.meta.limits, hash = opts.hash, geoDatabase = opts.meta.geoDatabase,
    abuseIPs = opts.meta.abuseIPs, sum = sum and string.format("%012x", sum) or nil,
  }
  if ok then ok, err = write(#ops + 1, "meta:", "", meta) end
  if ok then
    local changed = "*"
    if not opts.reset then
      local names = { "meta:" }
      for _, op in ipairs(ops) do names[#names + 1] = op[1] end
      changed = cjson.encode(names)
    end
    ok, err = dict:safe_set("c|" .. v, changed)
  end
  if ok then ok, err = dict:safe_set("current", v) end
  if not ok then
    for j = #undo, 1, -1 do
      local u = undo[j]
      if u[2] == nil then dict:delete(u[1]) else dict:set(u[1], u[2]) end
      if u[4] == nil then dict:delete(u[3]) else dict:set(u[3], u[4]) end
    end
    dict:delete("c|" .. v)
    dict:delete("pending")
    ngx.log(ngx.ERR, "rampart admin: version ", version, " refused, apply ", v, " aborted: ", err)
    if err == "no memory" then
      return 507, { error = "the data plane does not fit in the shared dict (no memory)", field = "(document)" }
    end
    return 500, { error = "cannot store the data plane: " .. tostring(err) }
  end
  dict:delete("pending")
  dict:delete("c|" .. (v - SYNC_KEEP))
  local due = cjson.decode(dict:get("gc") or "") or {}
  due[#due + 1] = { v, ngx.now() }
  dict:set("gc", cjson.encode(due))
  collect_later()

  ngx.log(ngx.NOTICE, "rampart admin: version ", version, " active as apply ", v,
    " (", meta.domains, " domains, ", meta.certificates, " certificates, ", #ops, " entries written)")
  return 200, meta
end

-- Runs `apply` under the push lock. Returns status, body.
local function locked(version, ops, opts)
  local got, ok, status, answer = under_lock(ngx.worker.pid(), apply, version, ops, opts)
  if not got then return 409, { error = "another push is in progress" } end
  if not ok then
    ngx.log(ngx.ERR, "rampart admin: push failed: ", status)
    return 500, { error = "push failed" }
  end
  return status, answer
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
  return respond(locked(doc.version, document_ops(doc), {
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
  return respond(locked(decoded.version, ops, { reset = reset, from = from, hashed = true, meta = meta }))
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

local function locked_gc()
  local got, ok, err = under_lock(ngx.worker.pid(), collect_due, 0)
  if not got then return 409, { error = "a push is in progress" } end
  if not ok then return 500, { error = tostring(err) } end
  return 200, { collected = true }
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
    -- Collects every superseded record now (tests; the timer does it GC_GRACE seconds after an apply).
    return respond(locked_gc())
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
