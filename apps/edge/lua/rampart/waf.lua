-- The WAF at the edge (issue 20; packages/contract/src/edge/waf.ts; docs/decisions.md "The WAF
-- engine"). A domain whose `modules.waf` names a WAF module has every request inspected here,
-- after the firewall, the Lua ACL and the frequency limits and before token auth (rampart.router).
--
-- What it sees (rampart.waf_request): the request as an application does — the path (decoded, as
-- sent, before nginx's dot-segment merge), query arguments (names and values), cookies, the headers
-- that carry data (User-Agent, Referer, X-Forwarded-For-like and custom X- headers ...), and the
-- body's first WAF_BODY_LIMIT_BYTES (128 KB, kept in memory by client_body_buffer_size, render.ts)
-- and, of a longer body, its last 128 KB (rampart.waf_body): urlencoded forms, JSON (nested, at
-- most 16 levels, keys too), XML (text and attribute values, and the prolog for XXE), multipart
-- (field values, file names and textual file contents), other bodies as text; a body (or a
-- multipart part) in UTF-16 or UTF-32 decoded first (rampart.waf_charset). Each value is decoded (rampart.waf_decode: URL, %u, HTML entities, JS/Unicode
-- escapes, overlong UTF-8, repeatedly, at most 3 rounds) and, when it looks like base64, its
-- decoding is inspected too.
--
-- Cheap first: a value is looked at only when it holds a byte or word some detector needs
-- (rampart.waf_inspect prefiltered(): two JIT regexes, special bytes and words, for header values
-- too, where "(", ")" and ";" are normal and read as spaces); most values of real traffic (ids,
-- words, numbers, tokens) stop there; a query string or form with none in any argument is not
-- even parsed unless a capital letter (base64) or a redirect parameter's name is in it. A value
-- already read under the same name and part is not read again. Values longer than CHUNK are read
-- in overlapping windows, each pre-filtered on its own, so 128 KB of padding costs one regex pass.
-- Each pattern rule has a literal guard (rampart.waf_rules GUARDS) tried before its regex: every
-- guard of a value answered by one Aho-Corasick scan (rampart.waf_guard). The Referer is read by
-- its query arguments (the rest is another page's URL).
--
-- Detectors by group (ids in WAF_GROUP_RULE_BASE ranges): sqli and xss are tokenizers
-- (rampart.waf_sqli with rampart.waf_sqli_lex, rampart.waf_xss); nosql and ldap
-- (rampart.waf_inject) and redirect (rampart.waf_redirect) read a value's syntax; the others are
-- anchored PCRE patterns (rampart.waf_rules); protocol checks (smuggling shapes, CR/LF injection,
-- invalid encodings, NUL bytes, unknown methods, bodies on GET) are here and in
-- rampart.waf_detect. The engine's modules: waf (the request, the decision), waf_state (the
-- inspection state they share), waf_compile (a module compiled), waf_inspect (how a value is
-- read), waf_detect (the detectors over one value), waf_body (the body by its type). Every hit has a score: 3 weak, 5 medium,
-- 8 strong. The request's score is its best hit's, +2 when two different rules fired; the module's
-- sensitivity is the threshold: low 8, medium 5, high 3.
--
-- Decision: in block mode a request at or over the threshold gets 403 with the edge's "Access
-- denied" page (route "4030", rampart.pages) and never reaches the origin; in detect mode it
-- passes. Either way the access log says why: rampart_fw_kind "waf", rampart_fw_rule the rule id,
-- rampart_fw_action "deny" or "detect", rampart_waf_part (WAF_PARTS), rampart_waf_excerpt (at
-- most 128 characters around the match, control characters removed) and rampart_waf_name (the
-- argument, cookie, header or upload field the match was in; "" for the path).
--
-- Exclusions (one click from a WAF event): a rule or a whole group is not applied to a part
-- (or any part), to one argument/cookie/header/field name ("" = all; headers case-insensitively),
-- on paths starting with a prefix ("" = all).
--
-- Budget: at most BYTES_BUDGET bytes of values are inspected per request and at most
-- TIME_BUDGET seconds of the worker's CPU time (os.clock: a busy machine does not shorten it)
-- spent, checked every 8 KB or 64 values and between the windows of a long value (the clock is a
-- system call); a request that runs out
-- is "not fully inspected", as is a body over WAF_BODY_LIMIT_BYTES or in a declared charset that
-- cannot be decoded: failMode "closed" blocks it (rule 113001 body over the limit, 113002 budget
-- exhausted, 113012 undecodable charset; logged like any block), "open" lets it through (after
-- inspecting what fitted: the first and the last 128 KB of a larger body), with a line in the
-- error log at info level.
local compiled_modules = require "rampart.compiled_modules"
local waf_state = require "rampart.waf_state"
local waf_compile = require "rampart.waf_compile"
local D = require "rampart.waf_detect"
local I = require "rampart.waf_inspect"
local B = require "rampart.waf_body"
local decode = require "rampart.waf_decode"
local waf_re = require "rampart.waf_re"
local session = require "rampart.waf_session"
local cve = require "rampart.waf_cve"

local _M = {}

local S = waf_state
local re_find = waf_re.find
local sub, lower, find, gsub, floor, byte = string.sub, string.lower, string.find, string.gsub, math.floor, string.byte
local unescape = ngx.unescape_uri
local hit, run_list, run_rules, detect, inspect, inspect_name, inspect_args =
  S.hit, D.run_list, D.run_rules, D.detect, I.inspect, I.inspect_name, I.inspect_args
local prefiltered = I.prefiltered

local GROUPS = { "sqli", "xss", "rce", "traversal", "rfi", "php", "java", "ssti", "ssrf", "xxe", "upload",
  "sensitiveFiles", "scanner", "protocol", "nosql", "ldap", "redirect", "graphql", "cve" }
local BASE = 100000
local THRESHOLD = { low = 8, medium = 5, high = 3 }
local BODY_LIMIT = 128 * 1024 -- WAF_BODY_LIMIT_BYTES
-- Arguments read from a query: all of them (0), the byte and time budgets bound the cost.
local MAX_ARGS = 0
local RULE = S.RULE
_M.BODY_LIMIT, _M.BYTES_BUDGET, _M.TIME_BUDGET = BODY_LIMIT, S.BYTES_BUDGET, S.TIME_BUDGET
_M.PROTOCOL_RULES = RULE

-- The group of a rule id.
local function group_of(id)
  return GROUPS[floor((id - BASE) / 1000) + 1]
end
_M.group_of = group_of
waf_state.configure(group_of)

local compiled_waf = compiled_modules.cache("waf", function(raw) return waf_compile.compile(raw, GROUPS, THRESHOLD) end)

function _M.of(domain, gen)
  local m = domain._waf
  if m == nil then
    m = compiled_waf(gen, domain.wafId)
    domain._waf = m
  end
  return m
end

-- Headers that carry no application data (or are judged elsewhere: Cookie, Host, Content-Length).
local SKIP_HEADERS = {}
for _, h in ipairs({ "host", "cookie", "authorization", "proxy-authorization", "accept", "accept-encoding",
  "accept-language", "accept-charset", "connection", "content-length", "cache-control", "pragma",
  "upgrade-insecure-requests", "if-none-match", "if-modified-since", "if-match", "if-unmodified-since",
  "if-range", "te", "priority", "dnt", "keep-alive", "upgrade", "range", "content-type",
  "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions", "sec-websocket-protocol",
  "x-request-id", "x-csrf-token", "x-xsrf-token", "origin", "sec-gpc", "purpose", "sec-purpose",
  "transfer-encoding", "expect" }) do
  SKIP_HEADERS[h] = true
end

-- Where the next hit is (for rampart.waf_cve).
local function where(part, name, value)
  S.part, S.name, S.lname, S.value = part, name, lower(name), value
end

-- The query's arguments (parsed only when inspect_args needs them one by one).
local function uri_args() return ngx.req.get_uri_args(MAX_ARGS) end

-- Headers a request of this method has no use for: WebDAV's lock headers outside WebDAV's methods,
-- a body's encoding or range on a request without one; and an Accept asking for a charset no
-- browser asks for (a page served in EBCDIC or UTF-16 reads markup a filter did not: IIS and
-- ASP.NET answer in the charset asked for).
local WEBDAV = { LOCK = true, UNLOCK = true, PUT = true, PROPFIND = true, PROPPATCH = true, MKCOL = true, COPY = true,
  MOVE = true, DELETE = true }
local NO_BODY = { GET = true, HEAD = true, OPTIONS = true }
local ACCEPT_CHARSETS = { ["utf-8"] = true, utf8 = true, ["iso-8859-1"] = true, ["us-ascii"] = true, ascii = true,
  latin1 = true }
local function misplaced_headers(method, headers)
  local name = (not WEBDAV[method] and (headers["if"] and "If" or headers["lock-token"] and "Lock-Token"))
    or (NO_BODY[method] and (headers["content-range"] and "Content-Range" or headers["content-encoding"] and "Content-Encoding"))
  if name then
    S.name, S.lname, S.value = name, lower(name), tostring(headers[lower(name)])
    hit(RULE.misplaced_header, 5, 1)
  end
  local accept = headers["accept"]
  if type(accept) == "table" then accept = table.concat(accept, ",") end
  if accept and find(accept, "charset", 1, true) then
    for cs in lower(accept):gmatch("charset%s*=%s*\"?([%w_.:-]+)") do
      if not ACCEPT_CHARSETS[cs] then
        S.name, S.lname, S.value = "Accept", "accept", accept
        hit(RULE.accept_charset, 5, 1)
        return
      end
    end
  end
end

local METHODS = { GET = true, HEAD = true, POST = true, PUT = true, PATCH = true, DELETE = true, OPTIONS = true }

-- The whole request. `with_body`: read and inspect the body (rewrite phase only).
local function inspect_request(m, var, with_body)
  local request_uri = var.request_uri or "/"
  local q = find(request_uri, "?", 1, true)
  local raw_path = q and sub(request_uri, 1, q - 1) or request_uri
  S.reset(m, var.uri or raw_path)
  local groups = m.groups
  local method = var.request_method
  -- (its keys are lower-cased already; without the metatable a missing header is a plain nil, not
  -- a call that rewrites the key for a second look)
  local headers = setmetatable(ngx.req.get_headers(100), nil)

  -- protocol: method, smuggling shapes
  if groups.protocol then
    S.part, S.name, S.value, S.lname = "header", "", method, ""
    if not METHODS[method] then hit(RULE.method, 5, 1) end
    local te, cl = headers["transfer-encoding"], headers["content-length"]
    if te and cl or type(cl) == "table" or (te and lower(type(te) == "table" and te[1] or te) ~= "chunked") then
      S.name, S.lname, S.value = "Transfer-Encoding", "transfer-encoding", tostring(type(te) == "table" and te[1] or te or cl)
      hit(RULE.smuggling, 8, 1)
    end
    misplaced_headers(method, headers)
  end

  -- path
  local path = unescape(raw_path)
  S.part, S.name, S.value = "path", "", path
  if find(raw_path, "%00", 1, true) and groups.protocol then hit(RULE.nul, 5, 1) end
  -- a line break in the path: no URL holds one (header injection, PHP-FPM's PATH_INFO bugs)
  if groups.protocol and find(raw_path, "%0", 1, true) and re_find(raw_path, [=[%0[ad]]=], "joi") then
    hit(RULE.crlf, 8, 1)
  end
  run_list(m.special_path, lower(path), false)
  inspect("path", "", path)
  -- a path segment can carry an encoded payload of its own (base64 mixes cases)
  if not S.done and #path > 13 and find(path, "%u") then
    for seg in path:gmatch("[^/]+") do
      if #seg >= 12 then
        local b = decode.base64(seg)
        if b then
          S.part, S.name, S.value = "path", "", b
          if prefiltered(b) then detect(decode.decode(b), false) end
          if S.done then break end
        end
      end
    end
  end

  -- query
  local args = var.args
  if args and args ~= "" and not S.done then
    if groups.protocol and find(args, "%", 1, true) and re_find(args, [=[%(?![0-9a-fA-F]{2}|[uU][0-9a-fA-F]{4})]=], "jo") then
      S.part, S.name, S.value = "query", "", args
      hit(RULE.bad_encoding, 3, 1)
    end
    if groups.protocol and find(args, "%00", 1, true) then
      S.part, S.name, S.value = "query", "", args
      hit(RULE.nul, 5, 1)
    end
    if groups.protocol then
      S.part, S.name, S.value = "query", "", args
      session.check(args, false, headers, hit)
    end
    inspect_args("query", args, uri_args)
  end

  -- exploits of known CVEs, where each puts its shape (rampart.waf_cve)
  if groups.cve and not S.done then cve.check(raw_path, path, args, headers, hit, where) end

  -- headers (the user agent also against scanner signatures)
  if not S.done then
    local ua = headers["user-agent"]
    if type(ua) == "table" then ua = ua[1] end
    if ua then
      S.part, S.name, S.lname, S.value = "header", "User-Agent", "user-agent", ua
      -- (a space before it: the scanner rule reads its boundary as a byte, rampart.waf_rules)
      run_rules(m.special.ua, " " .. lower(ua))
    end
    for name, value in pairs(headers) do
      if find(name, "name", 1, true) and find(name, "file[_-]?name") then
        S.part, S.name, S.lname, S.value = "header", name, name, tostring(value)
        run_rules(m.special.filename, lower(tostring(value)))
      end
      if not SKIP_HEADERS[name] and not find(name, "^sec%-") then
        if type(value) == "table" then value = table.concat(value, ", ") end
        local q = name == "referer" and find(value, "^https?://[^?]*%?")
        if q then
          -- a Referer is another page's URL: its query arguments are the values worth reading
          local _, qs = find(value, "?", 1, true)
          local args = ngx.decode_args(sub(value, qs + 1), 64)
          for _, v in pairs(args) do
            if type(v) == "table" then
              for _, x in ipairs(v) do if type(x) == "string" then inspect("header", name, x, true) end end
            elseif type(v) == "string" then
              inspect("header", name, v, true)
            end
            if S.done or S.over then break end
          end
        end
        -- the whole value too where a URL has no business holding markup, quotes or spaces
        -- (one PCRE search for markup, quotes or a space: %s's six bytes spelt out)
        if not q or re_find(value, [=[[<>"'`{} \t\n\x0b\f\r]]=], "jo") then
          if name ~= "referer" or not find(value, "^https?://") or re_find(value, [=[[<>"'`{} \t\n\x0b\f\r]]=], "jo") then
            inspect("header", name, value, true)
          end
        end
        if S.done or S.over then break end
      end
    end
  end

  -- an upload's file name in a header nginx ignores (a name with "_" or "."; not passed on, but a
  -- web shell's name in one is a probe of an upload handler all the same)
  if groups.upload and not S.done then
    local raw = ngx.req.raw_header(true)
    -- (one PCRE scan: a Lua class pattern tries a match at every byte of the head, on every request)
    if raw and re_find(raw, [[name\s*:]], "joi") then
      for name, value in ("\n" .. raw):gmatch("\n([%w._-]*[Ff][Ii][Ll][Ee][_.-]?[Nn][Aa][Mm][Ee][%w._-]*)%s*:%s*([^\r\n]*)") do
        if find(name, "[_.]") then
          S.part, S.name, S.lname, S.value = "header", name, lower(name), value
          run_rules(m.special.filename, lower(value))
        end
      end
    end
  end

  -- cookies
  local cookie = headers["cookie"]
  if cookie and not S.done then
    if type(cookie) == "table" then cookie = table.concat(cookie, "; ") end
    local n, at, len = 0, 1, #cookie
    -- the runs between ';' (plain searches: a class pattern's gmatch costs a call per byte)
    while at <= len do
      local semi = find(cookie, ";", at, true) or len + 1
      local pair = sub(cookie, at, semi - 1)
      at = semi + 1
      if pair ~= "" then
        local eq = find(pair, "=", 1, true)
        local name = eq and gsub(sub(pair, 1, eq - 1), "^%s+", "") or gsub(pair, "^%s+", "")
        local value = eq and sub(pair, eq + 1) or ""
        -- RFC 2109's "$Version"/"$Path" attributes: servers that still parse them read quoted values
        -- across the following cookies (cookie smuggling); browsers never send them
        if n == 0 and groups.protocol and byte(name, 1) == 36 and find(name, "^%$[Vv][Ee][Rr][Ss][Ii][Oo][Nn]$") then
          S.part, S.name, S.value = "cookie", name, pair
          hit(RULE.cookie_attribute, 5, 1)
        end
        inspect_name("cookie", name)
        inspect("cookie", name, value)
        n = n + 1
        if n > 256 or S.done or S.over then break end
      end
    end
  end

  if not S.done then
    local ctype = headers["content-type"]
    if type(ctype) == "table" then ctype = ctype[1] end
    if ctype then B.check_content_type(ctype) end
  end
  if with_body and not S.done and not S.over then B.inspect_body(var, headers, BODY_LIMIT) end
end

-- The name (argument, cookie, header, field) of the last decision's match, for diagnostics.
function _M.last_name() return S.best_name end

-- Does the request have a body to read (the rewrite phase must do it)?
function _M.has_body(var)
  local cl = var.http_content_length
  if cl then return cl ~= "0" end
  if var.http_transfer_encoding ~= nil then return true end
  -- HTTP/2 and HTTP/3 bodies may come without a length
  local m = var.request_method
  return m ~= "GET" and m ~= "HEAD" and m ~= "OPTIONS" and var.server_protocol ~= "HTTP/1.1" and var.server_protocol ~= "HTTP/1.0"
end

-- For route()/elsewhere(): the route of a blocked request ("4030"), or nil to go on. `with_body`
-- reads and inspects the body (only where nginx allows it: the rewrite phase).
function _M.check(domain, gen, var, with_body)
  local m = _M.of(domain, gen)
  if not m then return nil end
  local ok, err = pcall(inspect_request, m, var, with_body)
  if not ok then
    ngx.log(ngx.ERR, "rampart waf: inspection failed: ", err)
    S.over = true
  end
  local re_err = waf_re.failure()
  if re_err then
    ngx.log(ngx.WARN, "rampart waf: a pattern failed on this request (", re_err, "): not fully inspected")
    S.over = true
  end
  local score = S.best
  if S.second then score = score + 2 end
  local rule, part, text, name = S.best_rule, S.best_part, S.best_excerpt, S.best_name
  if score < m.threshold or rule == nil then
    if not S.over then return nil end
    -- not fully inspected: the module's fail mode decides
    if not m.fail_closed then
      ngx.log(ngx.INFO, "rampart waf: budget exhausted, request passed unfinished (fail open)")
      return nil
    end
    rule, part, text, name = RULE.budget, S.part or "body", "inspection budget exhausted", nil
  end
  var.rampart_fw_kind = "waf"
  var.rampart_fw_rule = rule
  var.rampart_fw_action = m.block and "deny" or "detect"
  var.rampart_waf_part = part
  var.rampart_waf_excerpt = text
  -- the argument, cookie, header or upload field it was in (an exclusion made from the event names it)
  var.rampart_waf_name = (name and part ~= "path") and sub(gsub(name, "[%z\1-\31\127]", ""), 1, S.EXCERPT) or ""
  if m.block then return "4030" end
  return nil
end

return _M
