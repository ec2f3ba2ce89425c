-- The request body as rampart.waf reads it: urlencoded forms, JSON (nested, keys too), JSON lines,
-- XML (text, attributes, CDATA and the prolog for XXE), multipart (fields, file names, textual file
-- contents, the parts' own headers), other bodies as text or their printable runs.
local S = require "rampart.waf_state"
local D = require "rampart.waf_detect"
local I = require "rampart.waf_inspect"
local rules = require "rampart.waf_rules"
local cjson = require "cjson.safe"
local waf_re = require "rampart.waf_re"
local charset = require "rampart.waf_charset"
local graphql = require "rampart.waf_graphql"
local redirect = require "rampart.waf_redirect"
local session = require "rampart.waf_session"

local _M = {}

local re_find, gmatch_from = waf_re.find, waf_re.gmatch_from
local sub, lower, find, gsub, byte = string.sub, string.lower, string.find, string.gsub, string.byte
local hit, run_rules, inspect, inspect_name, inspect_args = S.hit, D.run_rules, I.inspect, I.inspect_name, I.inspect_args
local RULE = S.RULE
local MAX_ARGS = 0

local MULTIPART = { ["multipart/form-data"] = true, ["multipart/related"] = true, ["multipart/mixed"] = true,
  ["multipart/alternative"] = true, ["multipart/byteranges"] = true }
local CHARSETS = {}
for _, c in ipairs({ "utf-8", "utf8", "iso-8859-1", "iso-8859-15", "latin1", "windows-1252", "us-ascii", "ascii",
  "gbk", "gb2312", "gb18030", "big5", "shift_jis", "sjis", "euc-jp", "euc-kr", "iso-2022-jp", "koi8-r",
  "windows-1251" }) do
  CHARSETS[c] = true
end

local function walk_json(t, depth)
  if depth > 16 or S.done or S.over then return end
  for k, v in pairs(t) do
    local name = type(k) == "string" and k or nil
    if name then inspect_name("body", name) end
    local tv = type(v)
    if tv == "string" then
      inspect("body", name or "", v)
    elseif tv == "table" then
      walk_json(v, depth + 1)
    end
    if S.done or S.over then return end
  end
end

local function inspect_xml(body)
  S.part, S.name, S.value = "body", "", body
  local groups = S.m.groups
  local head = lower(sub(body, 1, 4096))
  for _, r in ipairs(rules.RULES.xxe) do
    if groups.xxe then
      local from = re_find(head, r.re, "jo")
      if from then hit(r.id, r.score, from) end
    end
  end
  if S.done then return end
  if groups.redirect then redirect.xml(body, hit) end
  if S.done then return end
  -- text nodes and attribute values, decoded as an XML parser would (entities); each pattern tried
  -- where a plain search finds its first bytes
  local n = 0
  for text in gmatch_from(body, ">", ">([^<]+)<") do
    if find(text, "%S") then inspect("body", "", text) end
    n = n + 1
    if n > 2048 or S.done or S.over then return end
  end
  for value in gmatch_from(body, "=", "=%s*\"([^\"]*)\"") do
    inspect("body", "", value)
    n = n + 1
    if n > 4096 or S.done or S.over then return end
  end
  for value in gmatch_from(body, "=", "=%s*'([^']*)'") do
    inspect("body", "", value)
    if S.done or S.over then return end
  end
  -- CDATA sections
  for value in gmatch_from(body, "<![CDATA[", "<!%[CDATA%[(.-)%]%]>") do
    inspect("body", "", value)
    if S.done or S.over then return end
  end
end

local function inspect_multipart(body, ctype)
  local boundary = ctype:match("[Bb][Oo][Uu][Nn][Dd][Aa][Rr][Yy]=\"([^\"]+)\"")
    or ctype:match("[Bb][Oo][Uu][Nn][Dd][Aa][Rr][Yy]=([^;,%s]+)")
  if not boundary then
    inspect("body", "", body)
    return
  end
  local delim = "--" .. boundary
  local pos = find(body, delim, 1, true)
  local parts = 0
  while pos and parts < 256 and not S.done and not S.over do
    parts = parts + 1
    local start = pos + #delim
    if sub(body, start, start + 1) == "--" then break end
    local nxt = find(body, delim, start, true)
    local chunk = sub(body, start, (nxt or #body + 1) - 1)
    local head_end = find(chunk, "\r\n\r\n", 1, true)
    local sep = 4
    if not head_end then head_end = find(chunk, "\n\n", 1, true); sep = 2 end
    if head_end then
      local head = sub(chunk, 1, head_end - 1)
      local content = sub(chunk, head_end + sep)
      -- (the line break before the boundary: the last one or two bytes, not a pattern tried at
      -- every byte of the part)
      if byte(content, -1) == 10 then content = sub(content, 1, byte(content, -2) == 13 and -3 or -2) end
      local lhead = lower(head)
      -- a part in another charset (its own Content-Type's, a byte order mark, wide NULs): decoded
      content = charset.decode(content, charset.declared(head:match("[Tt][Yy][Pp][Ee]%s*:%s*([^\r\n]*)")))
      local name = head:match("[Nn][Aa][Mm][Ee]%s*=%s*\"([^\"]*)\"") or head:match("[Nn][Aa][Mm][Ee]%s*=%s*([^;%s]+)") or ""
      local filename = head:match("[Ff][Ii][Ll][Ee][Nn][Aa][Mm][Ee]%*?%s*=%s*\"([^\"]*)\"")
        or head:match("[Ff][Ii][Ll][Ee][Nn][Aa][Mm][Ee]%*?%s*=%s*([^;%s]+)")
      if S.m.groups.protocol and (find(lhead, "content-transfer-encoding", 1, true) or name == "_charset_"
        or find(name, "[;=\\\"]") or (filename and find(filename, "[;=\"]"))) then
        S.part, S.name, S.value = "body", name, head
        hit(RULE.multipart, 5, 1)
      end
      -- the part's own headers can carry payloads too (name, filename, content-type)
      if re_find(head, [=[[<>`;$|]|\.\.|\{\{]=], "jo") then
        inspect("body", name, gsub(head, "\r?\n", " "))
      end
      if filename then
        S.part, S.name, S.value = "file", name, filename
        local lf = lower(filename)
        run_rules(S.m.special.filename, lf)
        -- (and as a server that drops escapes and quotes would store it: "1.j\s\p")
        if find(lf, "[\\\"']") then run_rules(S.m.special.filename, (gsub(lf, "[\\\"']", ""))) end
        inspect("file", name, filename)
        -- contents: textual files only (no NUL in the first 512 bytes)
        if (find(content, "\0", 1, true) or 513) > 512 then
          S.part, S.name, S.value = "file", name, content
          run_rules(S.m.special.file, lower(content))
          inspect("file", name, content)
        end
      else
        inspect_name("body", name)
        inspect("body", name, content)
      end
    end
    pos = nxt
  end
end

-- The Content-Type header, with or without a body (a declared type that is no type is a probe of
-- the body parsers: Struts' OGNL in it, a boundary on a form type, parameters that are no parameters).
local function check_content_type(ctype)
  if ctype == "" or not S.m.groups.protocol then return end
  local lctype = lower(ctype)
  S.part, S.name, S.lname, S.value = "header", "Content-Type", "content-type", ctype
  -- every charset parameter (a second one overrides the first in some parsers)
  if find(lctype, "charset", 1, true) then
    for charset in lctype:gmatch("charset%s*=%s*\"?([%w_.:-]*)") do
      if not CHARSETS[charset] then hit(RULE.charset, 5, 1) break end
    end
  end
  -- a content type that is no type: no "/", an empty subtype, a boundary on a non-multipart type,
  -- a multipart subtype no form sends, or a parameter without "=" ("text/xml; blah")
  local mt = lctype:match("^%s*([^;%s]*)")
  if not find(mt, "^[%w!#$&^_.+-]+/[%w!#$&^_.+-]+$")
    or (find(lctype, "boundary=", 1, true) and not find(mt, "^multipart/"))
    or (find(mt, "^multipart/") and not MULTIPART[mt])
    or find(lctype, ";%s*[^=;%s][^=;]*$") or find(lctype, ";%s*[^=;%s][^=;]*;") then
    hit(RULE.content_type, 5, 1)
  end
end

-- The body's first `limit` bytes; when it is longer, its last `limit` bytes (those not in the first:
-- an attack padded past the limit is in them) and its length.
local function read_body(limit)
  ngx.req.read_body()
  local body = ngx.req.get_body_data()
  if body ~= nil then
    local n = #body
    if n <= limit then return body, nil, n end
    return sub(body, 1, limit), sub(body, n - limit > limit and n - limit + 1 or limit + 1), n
  end
  -- spilled to a temp file (larger than client_body_buffer_size)
  local file = ngx.req.get_body_file()
  if file == nil then return nil end
  local f = io.open(file, "rb")
  if not f then return nil end
  local n = f:seek("end") or 0
  f:seek("set", 0)
  local head = f:read(limit) or ""
  local tail
  if n > limit then
    f:seek("set", n - limit > limit and n - limit or limit)
    tail = f:read(limit)
  end
  f:close()
  return head, tail, n
end

-- JSON cut anywhere (the end of a long body): every run between two unescaped quotes that is more
-- than JSON's punctuation, both the strings and what lies between them (where the cut falls
-- decides which is which), JSON escapes undone.
local function inspect_json_fragment(s)
  local i, n, len = 1, 0, #s
  while i <= len and n < 8192 and not S.done and not S.over do
    local e = find(s, '"', i, true)
    while e and byte(s, e - 1) == 92 do
      local k = e - 1
      while k >= i and byte(s, k) == 92 do k = k - 1 end
      if (e - 1 - k) % 2 == 0 then break end
      e = find(s, '"', e + 1, true)
    end
    local seg = sub(s, i, (e or len + 1) - 1)
    if not find(seg, "^[%s,:%[%]{}]*$") then
      local v = find(seg, "\\", 1, true) and cjson.decode('"' .. seg .. '"') or seg
      inspect("body", "", type(v) == "string" and v or seg)
    end
    if not e then return end
    i = e + 1
    n = n + 1
  end
end

-- A form's arguments; values %-encoded in a wide charset the form declares ("q=%FF%FE%3C%00..."),
-- `wide`, decoded.
local function form_args(body, wide)
  local args = ngx.decode_args(body, MAX_ARGS)
  if wide then
    for k, v in pairs(args) do
      if type(v) == "string" then
        args[k] = (charset.decode(v, wide))
      elseif type(v) == "table" then
        for i, x in ipairs(v) do if type(x) == "string" then v[i] = (charset.decode(x, wide)) end end
      end
    end
  end
  return args
end

-- A body (or the end of one: `fragment`) read by its type.
local function inspect_as(body, ctype, lctype, declared, decoded, fragment, headers)
  local first = byte(body, (find(body, "%S")) or 1)
  if find(lctype, "multipart/", 1, true) then
    if fragment == "head" then
      inspect_multipart(body, ctype)
    elseif fragment then
      -- the part the cut fell in, as text; the whole parts after it as parts
      local boundary = ctype:match("[Bb][Oo][Uu][Nn][Dd][Aa][Rr][Yy]=\"?([^\";,%s]+)")
      local at = boundary and find(body, "--" .. boundary, 1, true)
      inspect("body", "", at and sub(body, 1, at - 1) or body)
      if at then inspect_multipart(sub(body, at), ctype) end
    else
      inspect_multipart(body, ctype)
    end
  elseif find(lctype, "json", 1, true) or ((first == 123 or first == 91) and not find(lctype, "x-www-form", 1, true)) then
    if fragment then return inspect_json_fragment(body) end
    local ok, doc = pcall(cjson.decode, body)
    if ok and type(doc) == "table" then
      if S.m.groups.protocol and headers then
        S.part, S.name, S.value = "body", "", body
        session.check(body, true, headers, hit)
      end
      if S.m.groups.graphql and first == 91 then
        S.part, S.name, S.value = "body", "", sub(body, 1, 256)
        graphql.batch(doc, hit)
      end
      walk_json(doc, 1)
    elseif find(body, "\n", 1, true) then
      -- JSON lines (NDJSON, telemetry envelopes): each line a document of its own, or text
      -- (the runs between newlines by plain searches: a class pattern's gmatch costs a call per byte)
      local n, at, len = 0, 1, #body
      while at <= len do
        local nl = find(body, "\n", at, true) or len + 1
        local line = sub(body, at, nl - 1)
        at = nl + 1
        if line ~= "" then
          local c = byte(line, (find(line, "%S")) or 1)
          local d = (c == 123 or c == 91) and cjson.decode(line)
          if type(d) == "table" then walk_json(d, 1) else inspect("body", "", line) end
          n = n + 1
          if n > 4096 or S.done or S.over then return end
        end
      end
    else
      inspect("body", "", body)
    end
  elseif find(lctype, "xml", 1, true) or first == 60 then
    inspect_xml(body)
  elseif find(lctype, "x-www-form-urlencoded", 1, true) or (lctype == "" and find(body, "^[%w_.%-%[%]]+=")) then
    -- (the end of a form: from its first whole argument)
    if fragment == true then body = sub(body, (find(body, "&", 1, true) or 0) + 1) end
    if S.m.groups.protocol and re_find(body, [=[%(?![0-9a-fA-F]{2}|[uU][0-9a-fA-F]{4})]=], "jo") then
      S.part, S.name, S.value = "body", "", body
      hit(RULE.bad_encoding, 3, (re_find(body, [=[%(?![0-9a-fA-F]{2})]=], "jo")))
    end
    if S.m.groups.protocol and headers then
      S.part, S.name, S.value = "body", "", body
      session.check(body, false, headers, hit)
    end
    local wide = declared and charset.DECLARED[declared] and not decoded
    if wide then
      inspect_args("body", body, form_args(body, declared))
    else
      -- (parsed only when inspect_args needs the arguments one by one; the function and its
      -- argument, not a closure: a closure made per call stops LuaJIT's trace compiler)
      inspect_args("body", body, form_args, body)
    end
  else
    -- Any other body: as text when it is text, else its printable runs (protobuf, binary beacons).
    -- (PCRE scans: a Lua class pattern costs a call and a class test per byte)
    if not re_find(sub(body, 1, 2048), [=[[^\t\n\r\x20-\x7e\x80-\xff]]=], "jo") then
      inspect("body", "", body)
    else
      local n = 0
      for m in waf_re.gmatch(body, [=[[\t\n\r\x20-\x7e]{8,}]=], "jo") do
        inspect("body", "", m[0])
        n = n + 1
        if n > 4096 or S.done or S.over then return end
      end
    end
  end
end

-- The body: its first `limit` bytes and, when longer, its last `limit` bytes, each in the charset a
-- server would read it in (rampart.waf_charset). A body longer than `limit`, or in a charset that
-- cannot be decoded, is not fully inspected: fail closed blocks it.
local function inspect_body(var, headers, limit)
  local ctype = headers["content-type"]
  if type(ctype) == "table" then ctype = ctype[1] end
  ctype = ctype or ""
  local lctype = lower(ctype)
  -- (reading the body, from the socket or its temp file, is not inspection: not on the budget)
  -- (nor counted before the budget's clock started: then it is not read at all)
  local before = S.started and os.clock()
  local body, tail, total = read_body(limit)
  if before then S.started = S.started + (os.clock() - before) end
  if body == nil or total == 0 then return end
  if tail then
    if S.m.fail_closed then return S.decide(RULE.body_limit, "body", "body over " .. limit .. " bytes") end
    ngx.log(ngx.INFO, "rampart waf: body over ", limit, " bytes: its first and last ", limit, " inspected (fail open)")
  end
  local method = var.request_method
  if (method == "GET" or method == "HEAD") and S.m.groups.protocol then
    S.part, S.name, S.value = "body", "", body
    hit(RULE.get_body, 5, 1)
  end
  local declared = charset.declared(ctype)
  if declared and not CHARSETS[declared] and not charset.DECLARED[declared] and S.m.fail_closed then
    return S.decide(RULE.undecodable, "body", "body in charset " .. sub(declared, 1, 64))
  end
  local enc, bom = charset.sniff(body, declared)
  if enc then
    body = charset.to_utf8(body, enc, bom + 1)
    if tail then
      -- (the end read from a whole code unit of the charset)
      local unit = find(enc, "32", 1, true) and 4 or find(enc, "16", 1, true) and 2 or 1
      tail = charset.to_utf8(tail, enc, (unit - (total - #tail) % unit) % unit + 1)
    end
  end
  -- (a JSON body cut at the limit is read as a fragment from its start too)
  inspect_as(body, ctype, lctype, declared, enc ~= nil, tail ~= nil and "head", headers)
  if tail and not S.done and not S.over then inspect_as(tail, ctype, lctype, declared, enc ~= nil, true) end
end

_M.check_content_type, _M.inspect_body = check_content_type, inspect_body

return _M
