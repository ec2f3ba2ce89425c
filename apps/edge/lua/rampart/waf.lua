-- The WAF at the edge (issue 20; packages/contract/src/edge/waf.ts; docs/decisions.md "The WAF
-- engine"). A domain whose `modules.waf` names a WAF module has every request inspected here,
-- after the firewall, the Lua ACL and the frequency limits and before token auth (rampart.router).
--
-- What it sees (rampart.waf_request): the request as an application does — the path (decoded, as
-- sent, before nginx's dot-segment merge), query arguments (names and values), cookies, the headers
-- that carry data (User-Agent, Referer, X-Forwarded-For-like and custom X- headers ...), and the
-- body up to WAF_BODY_LIMIT_BYTES (128 KB, kept in memory by client_body_buffer_size, render.ts):
-- urlencoded forms, JSON (nested, at most 16 levels, keys too), XML (text and attribute values,
-- and the prolog for XXE), multipart (field values, file names and textual file contents), other
-- bodies as text. Each value is decoded (rampart.waf_decode: URL, %u, HTML entities, JS/Unicode
-- escapes, overlong UTF-8, repeatedly, at most 3 rounds) and, when it looks like base64, its
-- decoding is inspected too.
--
-- Cheap first: a value is looked at only when it holds a byte or word some detector needs
-- (PREFILTER, one JIT regex, for header values too, where "(", ")" and ";" are normal and read
-- as spaces); most values of real traffic (ids, words, numbers, tokens) stop there. A value already
-- read under the same name and part is not read again. Values longer than CHUNK are read in
-- overlapping windows, each pre-filtered on its own, so 128 KB of padding costs one regex pass.
-- Each pattern rule has a literal guard (rampart.waf_rules GUARDS: plain string searches) tried
-- before its regex. The Referer is read by its query arguments (the rest is another page's URL).
--
-- Detectors by group (ids in WAF_GROUP_RULE_BASE ranges): sqli and xss are tokenizers
-- (rampart.waf_sqli, rampart.waf_xss); the others are anchored PCRE patterns
-- (rampart.waf_rules); protocol checks (smuggling shapes, CR/LF injection, invalid encodings,
-- NUL bytes, unknown methods, bodies on GET) are here. Every hit has a score: 3 weak, 5 medium,
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
-- spent, checked every 32 values and between the windows of a long value; a request that runs out
-- is "not fully inspected", as is a body over WAF_BODY_LIMIT_BYTES: failMode "closed" blocks it
-- (rule 113001 body over the limit, 113002 budget exhausted; logged like any block), "open" lets it
-- through (after inspecting what fitted: the first 128 KB of a larger body), with a line in the
-- error log at info level.
local compiled_modules = require "rampart.compiled_modules"
local decode = require "rampart.waf_decode"
local sqli = require "rampart.waf_sqli"
local xss = require "rampart.waf_xss"
local rules = require "rampart.waf_rules"
local cjson = require "cjson.safe"
local waf_re = require "rampart.waf_re"

local _M = {}

-- Every match of a request goes through waf_re: a pattern that fails leaves the request not fully
-- inspected (the fail mode decides) instead of reading as no match.
local re_find, re_gsub = waf_re.find, ngx.re.gsub
local sub, lower, find, gsub, byte, floor = string.sub, string.lower, string.find, string.gsub, string.byte, math.floor
-- The budget counts the worker's CPU time (os.clock), not the wall clock: a busy machine must not
-- make the engine give up on requests it would have finished.
local cpu_clock = os.clock
local unescape = ngx.unescape_uri
local guarded = rules.guarded

local GROUPS = { "sqli", "xss", "rce", "traversal", "rfi", "php", "java", "ssti", "ssrf", "xxe", "upload",
  "sensitiveFiles", "scanner", "protocol" }
local BASE = 100000
local THRESHOLD = { low = 8, medium = 5, high = 3 }
local BODY_LIMIT = 128 * 1024 -- WAF_BODY_LIMIT_BYTES
local CHUNK, OVERLAP = 4096, 256
local BYTES_BUDGET = 512 * 1024
local TIME_BUDGET = 0.008
local EXCERPT = 128
-- Arguments read from a query or a form: all of them (0), the byte and time budgets bound the cost.
local MAX_ARGS = 0
local EMPTY = {}
_M.BODY_LIMIT, _M.BYTES_BUDGET, _M.TIME_BUDGET = BODY_LIMIT, BYTES_BUDGET, TIME_BUDGET

local RULE = { body_limit = 113001, budget = 113002, smuggling = 113003, crlf = 113004, bad_encoding = 113005,
  nul = 113006, method = 113007, get_body = 113008, charset = 113009, multipart = 113010, content_type = 113011 }
_M.PROTOCOL_RULES = RULE

-- The group of a rule id.
local function group_of(id)
  return GROUPS[floor((id - BASE) / 1000) + 1]
end
_M.group_of = group_of

-- A byte or word some detector needs; a value without any is not inspected further.
local PREFILTER = [=[[<>'"`;(){}\[\]$|&\\%=#!^~\r\n\x00]|\.\.|/\.|/(?:etc|proc|bin|usr|var|windows|winnt|dev|tmp)\b|(?i:\b(?:select|union|sleep|benchmark|waitfor|having|insert|delete|drop\s|exec|shutdown|information_schema|jndi|javascript|vbscript|file:|php:|data:|gopher:|dict:|java\.|javax\.|processbuilder|runtime|transformer|pg_|xp_|sp_|sqlite_|process|function|module\.|require|child_|alias|tempdb|msdb|mysql\.|docker\.internal|ip6-|sh\s+-c\b|whoami|ifconfig|ipconfig|if\s+(?:/i\s+)?(?:not\s+)?(?:exist|defined|errorlevel|cmdextversion)\b|constructor|prototype|localhost|127\.0|169\.254|passwd|system32|win\.ini|ftps?:|https?:)|/bin/|/sys/|\.ssh/|\+adw-|(?i:\.internal\b|\.svc\b|lvh\.me|localtest\.me|nip\.io|sslip\.io|\b(?:document|window)\s*\.|\b(?:ansible|chef-|visudo|cscli|bsdtar|mkfifo|busybox|regedit)))|(?<![\d\s])\*|\*(?![\d\s])|(?<![\w.])(?i:com|org)\.[a-zA-Z]|__(?i:proto|import|js_|class|globals|builtins|init|mro|subclasses)]=]
-- The same without the argument separators ("=", "&"), for a whole query string or form body.
local ARGS_PREFILTER = [=[[<>'"`;(){}\[\]$|\\%#!^~\r\n\x00]|\.\.|/\.|/(?:etc|proc|bin|usr|var|windows|winnt|dev|tmp)\b|(?i:\b(?:select|union|sleep|benchmark|waitfor|having|insert|delete|drop\s|exec|shutdown|information_schema|jndi|javascript|vbscript|file:|php:|data:|gopher:|dict:|java\.|javax\.|processbuilder|runtime|transformer|pg_|xp_|sp_|sqlite_|process|function|module\.|require|child_|alias|tempdb|msdb|mysql\.|docker\.internal|ip6-|sh\s+-c\b|whoami|ifconfig|ipconfig|if\s+(?:/i\s+)?(?:not\s+)?(?:exist|defined|errorlevel|cmdextversion)\b|constructor|prototype|localhost|127\.0|169\.254|passwd|system32|win\.ini|ftps?:|https?:)|/bin/|/sys/|\.ssh/|\+adw-|(?i:\.internal\b|\.svc\b|lvh\.me|localtest\.me|nip\.io|sslip\.io|\b(?:document|window)\s*\.|\b(?:ansible|chef-|visudo|cscli|bsdtar|mkfifo|busybox|regedit)))|(?<![\d\s])\*|\*(?![\d\s])|(?<![\w.])(?i:com|org)\.[a-zA-Z]|__(?i:proto|import|js_|class|globals|builtins|init|mro|subclasses)]=]
-- Header values (User-Agent ...) hold "(", ")" and ";" by nature: not a reason to look further.
-- (header values go through PREFILTER too, with those three bytes read as spaces, which keeps
-- the word boundaries: one compiled pattern fewer to keep warm; see header_prefilter)

-- Parameter names that hold a file system path or an include root.
local PATH_NAME = [=[(?:^|[_\[.-])(?:(?:abs(?:olute)?_?)?path|(?:root|base|inc|include|lib|app|mod|module|plugin|theme|template|tpl|class|conf|config)_?(?:path|dir|root)|dir|include|require|include_once|require_once)\]?$]=]

-- Log4j lookups folded to what they spell: ${lower:j} → j, ${::-n} → n, ${env:X:-d} → d.
local function fold_lookups(s)
  for _ = 1, 6 do
    local before = s
    s = gsub(s, "%${[^${}]-:%-([^${}]*)}", "%1")
    s = gsub(s, "%${%s*[lL][oO][wW][eE][rR]%s*:([^${}]*)}", "%1")
    s = gsub(s, "%${%s*[uU][pP][pP][eE][rR]%s*:([^${}]*)}", "%1")
    s = gsub(s, "%${%s*[dD][aA][tT][eE]%s*:%s*'([^'${}]*)'%s*}", "%1")
    if s == before then break end
  end
  return s
end

-- Module compilation --------------------------------------------------------------------------

-- Is every top-level alternative of a pattern anchored at the value's start ("^...|^...")?
local function anchored(re)
  if byte(re, 1) ~= 94 then return false end
  local depth, class, i, n = 0, false, 1, #re
  while i <= n do
    local c = byte(re, i)
    if c == 92 then
      i = i + 1
    elseif class then
      if c == 93 then class = false end
    elseif c == 91 then
      class = true
    elseif c == 40 then
      depth = depth + 1
    elseif c == 41 then
      depth = depth - 1
    elseif c == 124 and depth == 0 and byte(re, i + 1) ~= 94 then
      return false
    end
    i = i + 1
  end
  return true
end

-- A list of value rules: those with a literal guard, those without, and the rules anchored at the
-- value's start joined in one pattern, so that one PCRE call (failing at the first byte, as they
-- all do on most values) stands for all of them. A combined pattern matches where one of its rules
-- does, so it never hides a match.
local function rule_list(list)
  local guarded_rules, open, starts, res, open_res = {}, {}, {}, {}, {}
  for _, r in ipairs(list) do
    if r.guard then
      guarded_rules[#guarded_rules + 1] = r
    elseif anchored(r.re) then
      starts[#starts + 1] = r
      res[#res + 1] = "(?:" .. r.re .. ")"
    else
      open[#open + 1] = r
      open_res[#open_res + 1] = "(?:" .. r.re .. ")"
    end
  end
  -- the others without a guard behind one pattern too, when there are several
  return { guarded = guarded_rules, open = open, starts = starts, any_start = #res > 0 and table.concat(res, "|") or nil,
    any_open = #open_res > 1 and table.concat(open_res, "|") or nil }
end
_M._rule_list = rule_list

local prefilters_checked = false
local function compile(raw)
  -- a prefilter that does not compile would pass every value unread: fail loudly instead
  if not prefilters_checked then
    for _, re in ipairs({ PREFILTER, ARGS_PREFILTER }) do
      local _, _, err = ngx.re.find("", re, "jo")
      if err then error("rampart waf: a prefilter does not compile: " .. err) end
    end
    prefilters_checked = true
  end
  local groups = {}
  for _, g in ipairs(raw.groups) do groups[g] = true end
  local exclusions = {}
  for i, e in ipairs(raw.exclusions) do
    exclusions[i] = {
      rule = e.ruleId ~= ngx.null and e.ruleId or nil,
      group = e.group ~= ngx.null and e.group or nil,
      part = e.part,
      -- headers compare case-insensitively; argument, cookie and field names exactly
      name = e.part == "header" and lower(e.name) or e.name,
      path = e.path,
    }
  end
  -- The rules of the groups that are on, flattened once.
  local value_rules = {}
  for _, g in ipairs(GROUPS) do
    if groups[g] and rules.RULES[g] then
      for _, r in ipairs(rules.RULES[g]) do
        value_rules[#value_rules + 1] = { id = r.id, score = r.score, re = r.re, group = g, guard = rules.GUARDS[r.id] }
      end
    end
  end
  -- the rules that judge a URL as a whole (rampart.waf inspect_url), and those read again over a
  -- value with its shell quoting folded away
  local url_rules, shell_rules = {}, {}
  for _, r in ipairs(value_rules) do
    if r.group == "rfi" or r.group == "ssrf" or r.group == "traversal" then url_rules[#url_rules + 1] = r end
    if r.group == "rce" or r.group == "traversal" then shell_rules[#shell_rules + 1] = r end
  end
  local special = {}
  for kind, list in pairs(rules.SPECIAL) do
    local on = {}
    for _, r in ipairs(list) do
      if groups[r.group] then on[#on + 1] = r end
    end
    special[kind] = on
  end
  local special_path = rule_list(special.path)
  return {
    id = tostring(raw.id), block = raw.mode == "block", groups = groups, threshold = THRESHOLD[raw.sensitivity] or 5,
    fail_closed = raw.failMode == "closed", exclusions = exclusions, value_rules = rule_list(value_rules), url_rules = rule_list(url_rules),
    shell_rules = rule_list(shell_rules), special = special, special_path = special_path,
  }
end

local compiled_waf = compiled_modules.cache("waf", compile)

function _M.of(domain, gen)
  local m = domain._waf
  if m == nil then
    m = compiled_waf(gen, domain.wafId)
    domain._waf = m
  end
  return m
end

-- Inspection state: one request at a time per worker (nothing here yields), so module locals.
local st_m, st_uri, st_ex
local st_best, st_best_rule, st_best_part, st_best_excerpt, st_rules_hit, st_second, st_best_name
local st_bytes, st_started, st_values, st_over, st_done, st_seen
local cur_part, cur_name, cur_value, cur_lname

local function reset(m, uri)
  st_m, st_uri = m, uri
  st_seen = {}
  st_best, st_best_rule, st_best_part, st_best_excerpt, st_rules_hit, st_second = 0, nil, nil, nil, nil, false
  st_bytes, st_values, st_over, st_done = 0, 0, false, false
  st_started = cpu_clock()
  waf_re.reset()
  -- the exclusions whose path covers this request
  local ex = nil
  for _, e in ipairs(m.exclusions) do
    if e.path == "" or sub(uri, 1, #e.path) == e.path then
      ex = ex or {}
      ex[#ex + 1] = e
    end
  end
  st_ex = ex
end

local function excluded(id, group)
  local ex = st_ex
  if ex == nil then return false end
  for i = 1, #ex do
    local e = ex[i]
    if (e.rule == id or e.group == group) and (e.part == "any" or e.part == cur_part) then
      if e.name == "" or e.part == "any" or e.part == "path" then return true end
      if cur_part == "header" then
        if e.name == cur_lname then return true end
      elseif e.name == cur_name then
        return true
      end
    end
  end
  return false
end

local function excerpt(value, offset)
  local from = offset and offset > 40 and offset - 40 or 1
  local s = sub(value, from, from + EXCERPT * 2)
  s = gsub(s, "[%z\1-\31\127]", "")
  return sub(s, 1, EXCERPT)
end

-- A detector found something in cur_value.
local function hit(id, score, offset)
  local group = group_of(id)
  if not st_m.groups[group] then return end
  if excluded(id, group) then return end
  if st_rules_hit and st_rules_hit ~= id then st_second = true end
  st_rules_hit = st_rules_hit or id
  if score > st_best then
    st_best, st_best_rule, st_best_part, st_best_name = score, id, cur_part, cur_name
    st_best_excerpt = excerpt(cur_value, offset)
  end
  if st_best >= 8 then st_done = true end
end
_M._hit = hit

local function over_budget()
  if cpu_clock() - st_started > TIME_BUDGET then st_over = true end
  return st_over
end

local function run_rules(list, s)
  for i = 1, #list do
    local r = list[i]
    local from = re_find(s, r.re, "jo")
    if from then hit(r.id, r.score, from) end
  end
end

-- Runs a rule list (rule_list) over l, lower-cased; RFI and SSRF rules not for URL-shaped headers.
local function run_list(rl, l, skip_url_rules)
  if rl.any_start and re_find(l, rl.any_start, "jo") then
    local list = rl.starts
    for i = 1, #list do
      local r = list[i]
      if not (skip_url_rules and (r.group == "rfi" or r.group == "ssrf")) then
        local from = re_find(l, r.re, "jo")
        if from then
          hit(r.id, r.score, from)
          if st_done then return end
        end
      end
    end
  end
  local list = rl.open
  if rl.any_open and not re_find(l, rl.any_open, "jo") then list = EMPTY end
  for i = 1, #list do
    local r = list[i]
    if not (skip_url_rules and (r.group == "rfi" or r.group == "ssrf")) then
      local from = re_find(l, r.re, "jo")
      if from then
        hit(r.id, r.score, from)
        if st_done then return end
      end
    end
  end
  list = rl.guarded
  for i = 1, #list do
    local r = list[i]
    if not (skip_url_rules and (r.group == "rfi" or r.group == "ssrf")) and guarded(r.guard, l) then
      local from = re_find(l, r.re, "jo")
      if from then
        hit(r.id, r.score, from)
        if st_done then return end
      end
    end
  end
end

-- A remote URL given to a parameter whose name says it holds a local path (remote file inclusion:
-- "_CONF[path]=https://...", "mosConfig_absolute_path=http://..."); l lower-cased.
local function path_param_url(l)
  if st_m.groups.rfi and cur_name and cur_name ~= "" and (cur_part == "query" or cur_part == "body")
    and re_find(l, [=[^\s{0,4}(?:https?|ftps?)://]=], "jo") and re_find(cur_name, PATH_NAME, "joi") then
    hit(104005, 5, 1)
  end
end

-- Every detector over one decoded candidate.
local function detect(d, skip_url_rules, inner, quotes)
  local m = st_m
  local groups = m.groups
  cur_value = d
  if groups.sqli then sqli.check(d, hit, inner, quotes) end
  if st_done then return end
  if groups.xss then xss.check(d, hit) end
  if st_done then return end
  local l = lower(d)
  if groups.java and find(l, "${", 1, true) then
    local folded = fold_lookups(l)
    if folded ~= l then l = folded; cur_value = folded end
  end
  if groups.php and find(l, "(", 1, true) then
    rules.php_calls(l, hit)
    if st_done then return end
  end
  -- shell quoting inside words ("c''at /e\tc/pa\"ss\"wd") folded away: a second reading for the rules
  if find(l, "%w['\"\\]+[%w/]") or find(l, "%[%w%]") then
    local shell = gsub(gsub(l, "(%w)['\"\\]+", "%1"), "%[(%w)%]", "%1")
    if shell ~= l then
      cur_value = shell
      run_list(m.shell_rules, shell, false)
      if st_done then return end
      cur_value = d
    end
  end
  run_list(m.value_rules, l, skip_url_rules)
  if st_done then return end
  if not skip_url_rules then
    path_param_url(l)
    if st_done then return end
  end
  -- CR/LF followed by a request or status line (smuggling, response splitting) anywhere, or by a
  -- header (header injection) where a value never spans lines: the query, path, headers, cookies.
  if groups.protocol and find(d, "[\r\n]") then
    local from = re_find(l, [=[[\r\n]\s{0,4}(?:(?:get|post|head|put|delete|options|patch|connect|trace|propfind)\s{1,4}\S{1,512}\s{1,4}http/\d|http/\d(?:\.\d)?\s{1,4}\d{3})]=], "jo")
    if not from and cur_part ~= "body" and cur_part ~= "file" then
      from = re_find(l, [=[[\r\n]\s{0,4}[\w-]{2,40}\s{0,4}:]=], "jo")
    end
    -- a blank line then markup: a response body of the attacker's making (response splitting)
    if not from and cur_part ~= "body" and cur_part ~= "file" then
      from = re_find(d, [=[\r?\n\r?\n\s{0,4}<]=], "jo")
    end
    if from then hit(RULE.crlf, 8, from) end
  end
  if groups.protocol then
    -- a whole request line inside a value (a request smuggled into a proxied one, without or
    -- before a line break)
    local hv = find(l, "http/", 1, true)
    if hv then
      local from = re_find(l, [=[(?:get|post|head|put|delete|options|patch|connect|trace|propfind)\s{1,4}(?:/|[a-z]{3,8}://)\S{0,512}\s{1,4}http/\d(?:\.\d)?(?:\s|$)]=], "jo")
      if from then hit(RULE.crlf, 5, from) end
    end
    -- Apache mod_proxy's "unix:socket|http://..." (requests sent to a local socket)
    local ux = find(l, "unix:", 1, true)
    if ux and re_find(l, [=[\bunix:[^|\s]{0,1024}\|\s{0,4}(?:https?|ftp|fcgi|ajp|ws|wss|h2c?)://]=], "jo") then
      hit(RULE.smuggling, 8, ux)
    end
  end
end

-- One window of a value (at most CHUNK bytes).
local function inspect_window(v, skip_url_rules, inner, quotes)
  local pf
  if cur_part == "header" then
    -- "(", ")" and ";" are normal in a header value (User-Agent); a separator at its start is not
    pf = find(v, "^%s*[;|&`]") or re_find(find(v, "[();]") and gsub(v, "[();]", " ") or v, PREFILTER, "jo")
  else
    pf = re_find(v, PREFILTER, "jo")
  end
  -- a token whose only special byte is base64's padding ("=" at its end): read as base64 only
  if pf and byte(v, -1) == 61 and re_find(v, [=[^[A-Za-z0-9+/_-]{8,}={1,2}\z]=], "jo") then pf = nil end
  if not pf then
    -- Still a candidate for base64 (an encoded payload is letters and digits only).
    local b = decode.base64(v)
    if b then
      cur_value = b
      if re_find(b, PREFILTER, "jo") then detect(decode.decode(b), skip_url_rules) end
    end
    return
  end
  local d = decode.encoded(v) and decode.decode(v) or v
  detect(d, skip_url_rules, inner, quotes)
  if st_done then return end
  -- (base64 behind a URL encoding too: "...Pg%3D%3D" in a cookie)
  local b = decode.base64(v) or (d ~= v and decode.base64(d))
  if b and re_find(b, PREFILTER, "jo") then detect(decode.decode(b), skip_url_rules) end
end

local inspect

-- A value that is one URL of URL characters only (the links in beacons, forms and JSON): judged as a
-- whole by the URL rules (remote inclusion, SSRF, traversal), after %-decoding, then its query (and
-- fragment) arguments one by one, as the application will read them. One that decodes into other
-- characters (quotes, spaces, markup, a second %-encoding) is read by every detector instead (false).
local URL_RE = [=[^https?://[\w.~:/?#@%&=+,\-\x80-\xff]{1,4096}\z]=]
local URL_SAFE_RE = [=[^[\w.~:/?#@&=+,\-\x80-\xff]*\z]=]
local function inspect_url(part, name, v, skip_url_rules)
  local d = v
  if find(v, "%", 1, true) then
    d = decode.decode(v)
    if not re_find(d, URL_SAFE_RE, "jo") then return false end
  end
  cur_value = d
  local l = lower(d)
  run_list(st_m.url_rules, l, skip_url_rules)
  if st_done then return true end
  if not skip_url_rules then
    path_param_url(l)
    if st_done then return true end
  end
  local q = find(v, "?", 1, true) or find(v, "#", 1, true)
  while q and not st_done and not st_over do
    local h = find(v, "#", q + 1, true)
    local args = ngx.decode_args(sub(v, q + 1, h and h - 1 or #v), 64)
    for _, x in pairs(args) do
      if type(x) == "table" then
        for _, y in ipairs(x) do if type(y) == "string" then inspect(part, name, y, skip_url_rules) end end
      elseif type(x) == "string" then
        inspect(part, name, x, skip_url_rules)
      end
      if st_done or st_over then break end
    end
    q = h
  end
  return true
end

-- JSON inside a value (a beacon's payload in a query argument or a form field): its keys and
-- strings one by one, under the value's name, as for a JSON body.
local function walk_value_json(part, name, t, depth, skip_url_rules)
  if depth > 16 or st_done or st_over then return end
  for k, x in pairs(t) do
    if type(k) == "string" then
      cur_part, cur_name, cur_value = part, name, k
      if part == "header" then cur_lname = lower(name) end
      if st_m.groups.sqli then sqli.check_name(k, hit) end
      if re_find(k, PREFILTER, "jo") then inspect(part, name, k, skip_url_rules) end
    end
    local tx = type(x)
    if tx == "string" then
      inspect(part, name, x, skip_url_rules)
    elseif tx == "table" then
      walk_value_json(part, name, x, depth + 1, skip_url_rules)
    end
    if st_done or st_over then return end
  end
end

-- Inspects a value found in `part` under `name`.
function inspect(part, name, v, skip_url_rules)
  if st_done or st_over or v == nil then return end
  local n = #v
  if n == 0 then return end
  -- a value already read in this part of this request (repeated JSON keys and values, arrays of
  -- records) is not read again: Lua strings are interned, the lookup is one hash probe
  -- (by name too: an exclusion may cover the value under one name and not under another)
  -- (a table per part, made on its first value: value -> the name it was last read under)
  local key = name or ""
  local seen = st_seen[part]
  if seen == nil then
    seen = {}
    st_seen[part] = seen
  elseif seen[v] == key then
    return
  end
  seen[v] = key
  st_bytes = st_bytes + n
  if st_bytes > BYTES_BUDGET then st_over = true return end
  st_values = st_values + 1
  if (n > 1024 or st_values % 32 == 0) and over_budget() then return end
  cur_part, cur_name = part, name
  if part == "header" then cur_lname = lower(name) end
  local c1 = byte(v, 1)
  if (c1 == 123 or c1 == 91) and n > 1 then
    local cn = byte(v, n)
    -- (not when it spells a Java type for a JSON deserializer: judged as a whole)
    if (c1 == 123 and cn == 125 or c1 == 91 and cn == 93) and not find(v, "@type", 1, true)
      and not re_find(v, [=[\[\s*"(?:com|org|java|javax|ch|sun)\.]=], "jo") then
      local doc = cjson.decode(v)
      if type(doc) == "table" then
        walk_value_json(part, name, doc, 1, skip_url_rules)
        return
      end
    end
    cur_part, cur_name, cur_value = part, name, v
  end
  if n <= CHUNK then
    cur_value = v
    if c1 == 104 and re_find(v, URL_RE, "jo") and inspect_url(part, name, v, skip_url_rules) then return end
    return inspect_window(v, skip_url_rules)
  end
  -- where the value's first quote of each kind is: the window holding it gets that quote reading
  local firsts = { ["'"] = find(v, "'", 1, true), ['"'] = find(v, '"', 1, true), ["`"] = find(v, "`", 1, true) }
  local i = 1
  while i <= n do
    local last, quotes = i + CHUNK - 1, nil
    if i > 1 then
      for q, at in pairs(firsts) do
        if at >= i and at <= last then
          quotes = quotes or {}
          quotes[q] = true
        end
      end
    end
    inspect_window(sub(v, i, last), skip_url_rules, i > 1, quotes)
    if st_done or over_budget() then return end
    i = i + CHUNK - OVERLAP
  end
end
_M._inspect = inspect

-- Names (of arguments, cookies, JSON keys) get the NoSQL check and, with a special byte, the rest.
local function inspect_name(part, name)
  if st_done then return end
  cur_part, cur_name, cur_value = part, name, name
  if st_m.groups.sqli then sqli.check_name(name, hit) end
  -- an argument or cookie name never spans lines
  if (part == "query" or part == "cookie") and st_m.groups.protocol and find(name, "[\r\n]") then
    hit(RULE.crlf, 8, 1)
    if st_done then return end
  end
  if re_find(name, PREFILTER, "jo") then inspect(part, name, name) end
end

-- The parts of the request -----------------------------------------------------------------------

-- A value read only as a possible base64 encoding.
local function inspect_base64(part, name, v)
  local b = decode.base64(v)
  if b then
    cur_part, cur_name, cur_value = part, name, b
    if re_find(b, PREFILTER, "jo") then detect(decode.decode(b), false) end
  end
end

-- The arguments (`args`, decoded) of a query string or urlencoded body (`raw`, as sent). When the
-- whole string, decoded, holds nothing the prefilter looks for but the separators, and no encoded
-- separator or second "=" can hide one inside a value, no name or value holds any either: the
-- arguments are then only tried as base64 (one regex pass for the whole string instead of one per
-- name and per value: the calls, not the bytes, are what a short query or form costs; a long one is
-- read argument by argument). A pattern that fails (an error) leaves the string not clean.
local function inspect_args(part, raw, args)
  local clean = false
  if #raw <= CHUNK then
    local sep, _, err = re_find(raw, [=[%(?:2[56]|3d)|=[^&]*=]=], "joi")
    if not sep and not err then
      local d = find(raw, "+", 1, true) and gsub(raw, "%+", " ") or raw
      if find(d, "%", 1, true) then d = unescape(d) end
      local hit_at
      hit_at, _, err = re_find(d, ARGS_PREFILTER, "jo")
      clean = not hit_at and not err
    end
  end
  local n = 0
  for k, v in pairs(args) do
    n = n + 1
    if clean then
      if type(v) == "table" then
        for _, x in ipairs(v) do if type(x) == "string" then inspect_base64(part, k, x) end end
      elseif type(v) == "string" then
        inspect_base64(part, k, v)
      end
      if n % 256 == 0 and over_budget() then return end
    else
      if type(k) == "string" then inspect_name(part, k) end
      if type(v) == "table" then
        for _, x in ipairs(v) do if type(x) == "string" then inspect(part, k, x) end end
      elseif type(v) == "string" then
        inspect(part, k, v)
      end
    end
    if st_done or st_over then return end
  end
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

local MULTIPART = { ["multipart/form-data"] = true, ["multipart/related"] = true, ["multipart/mixed"] = true,
  ["multipart/alternative"] = true, ["multipart/byteranges"] = true }
local METHODS = { GET = true, HEAD = true, POST = true, PUT = true, PATCH = true, DELETE = true, OPTIONS = true }
local CHARSETS = {}
for _, c in ipairs({ "utf-8", "utf8", "iso-8859-1", "iso-8859-15", "latin1", "windows-1252", "us-ascii", "ascii",
  "gbk", "gb2312", "gb18030", "big5", "shift_jis", "sjis", "euc-jp", "euc-kr", "iso-2022-jp", "koi8-r",
  "windows-1251" }) do
  CHARSETS[c] = true
end

local function walk_json(t, depth)
  if depth > 16 or st_done or st_over then return end
  for k, v in pairs(t) do
    local name = type(k) == "string" and k or nil
    if name then inspect_name("body", name) end
    local tv = type(v)
    if tv == "string" then
      inspect("body", name or "", v)
    elseif tv == "table" then
      walk_json(v, depth + 1)
    end
    if st_done or st_over then return end
  end
end

local function inspect_xml(body)
  cur_part, cur_name, cur_value = "body", "", body
  local groups = st_m.groups
  local head = lower(sub(body, 1, 4096))
  for _, r in ipairs(rules.RULES.xxe) do
    if groups.xxe then
      local from = re_find(head, r.re, "jo")
      if from then hit(r.id, r.score, from) end
    end
  end
  if st_done then return end
  -- text nodes and attribute values, decoded as an XML parser would (entities)
  local n = 0
  for text in body:gmatch(">([^<]+)<") do
    if find(text, "%S") then inspect("body", "", text) end
    n = n + 1
    if n > 2048 or st_done or st_over then return end
  end
  for value in body:gmatch("=%s*\"([^\"]*)\"") do
    inspect("body", "", value)
    n = n + 1
    if n > 4096 or st_done or st_over then return end
  end
  for value in body:gmatch("=%s*'([^']*)'") do
    inspect("body", "", value)
    if st_done or st_over then return end
  end
  -- CDATA sections
  for value in body:gmatch("<!%[CDATA%[(.-)%]%]>") do
    inspect("body", "", value)
    if st_done or st_over then return end
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
  while pos and parts < 256 and not st_done and not st_over do
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
      content = gsub(content, "\r?\n$", "")
      local lhead = lower(head)
      local name = head:match("[Nn][Aa][Mm][Ee]%s*=%s*\"([^\"]*)\"") or head:match("[Nn][Aa][Mm][Ee]%s*=%s*([^;%s]+)") or ""
      local filename = head:match("[Ff][Ii][Ll][Ee][Nn][Aa][Mm][Ee]%*?%s*=%s*\"([^\"]*)\"")
        or head:match("[Ff][Ii][Ll][Ee][Nn][Aa][Mm][Ee]%*?%s*=%s*([^;%s]+)")
      if st_m.groups.protocol and (find(lhead, "content-transfer-encoding", 1, true) or name == "_charset_"
        or find(name, "[;=\\\"]") or (filename and find(filename, "[;=\"]"))) then
        cur_part, cur_name, cur_value = "body", name, head
        hit(RULE.multipart, 5, 1)
      end
      -- the part's own headers can carry payloads too (name, filename, content-type)
      if re_find(head, [=[[<>`;$|]|\.\.|\{\{]=], "jo") then
        inspect("body", name, gsub(head, "\r?\n", " "))
      end
      if filename then
        cur_part, cur_name, cur_value = "file", name, filename
        run_rules(st_m.special.filename, lower(filename))
        inspect("file", name, filename)
        -- contents: textual files only (no NUL in the first 512 bytes)
        if not find(sub(content, 1, 512), "%z") then
          cur_part, cur_name, cur_value = "file", name, content
          run_rules(st_m.special.file, lower(sub(content, 1, BODY_LIMIT)))
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
  if ctype == "" or not st_m.groups.protocol then return end
  local lctype = lower(ctype)
  cur_part, cur_name, cur_lname, cur_value = "header", "Content-Type", "content-type", ctype
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

local function inspect_body(var, headers)
  local ctype = headers["content-type"]
  if type(ctype) == "table" then ctype = ctype[1] end
  ctype = ctype or ""
  local lctype = lower(ctype)
  ngx.req.read_body()
  local body = ngx.req.get_body_data()
  local over = false
  if body == nil then
    -- spilled to a temp file (larger than client_body_buffer_size): its first BODY_LIMIT bytes,
    -- and whether there is more
    local file = ngx.req.get_body_file()
    if file == nil then return end
    local f = io.open(file, "rb")
    if f then
      body = f:read(BODY_LIMIT + 1)
      f:close()
    end
    if body == nil then body = "" end
    if #body > BODY_LIMIT then
      over = true
      body = sub(body, 1, BODY_LIMIT)
    end
  elseif #body > BODY_LIMIT then
    over = true
    body = sub(body, 1, BODY_LIMIT)
  end
  if over then
    if st_m.fail_closed then
      cur_part, cur_name, cur_value = "body", "", "body over " .. BODY_LIMIT .. " bytes"
      st_best, st_best_rule, st_best_part, st_best_excerpt = 8, RULE.body_limit, "body", cur_value
      st_done = true
      return
    end
    ngx.log(ngx.INFO, "rampart waf: body over ", BODY_LIMIT, " bytes: the rest not inspected (fail open)")
  end
  if #body == 0 then return end
  local method = var.request_method
  if (method == "GET" or method == "HEAD") and st_m.groups.protocol then
    cur_part, cur_name, cur_value = "body", "", body
    hit(RULE.get_body, 5, 1)
  end
  local first = byte(body, (find(body, "%S")) or 1)
  if find(lctype, "multipart/", 1, true) then
    inspect_multipart(body, ctype)
  elseif find(lctype, "json", 1, true) or ((first == 123 or first == 91) and not find(lctype, "x-www-form", 1, true)) then
    local ok, doc = pcall(cjson.decode, body)
    if ok and type(doc) == "table" then
      walk_json(doc, 1)
    elseif find(body, "\n", 1, true) then
      -- JSON lines (NDJSON, telemetry envelopes): each line a document of its own, or text
      local n = 0
      for line in body:gmatch("[^\n]+") do
        local c = byte(line, (find(line, "%S")) or 1)
        local d = (c == 123 or c == 91) and cjson.decode(line)
        if type(d) == "table" then walk_json(d, 1) else inspect("body", "", line) end
        n = n + 1
        if n > 4096 or st_done or st_over then return end
      end
    else
      inspect("body", "", body)
    end
  elseif find(lctype, "xml", 1, true) or first == 60 then
    inspect_xml(body)
  elseif find(lctype, "x-www-form-urlencoded", 1, true) or (lctype == "" and find(body, "^[%w_.%-%[%]]+=")) then
    if st_m.groups.protocol and re_find(body, [=[%(?![0-9a-fA-F]{2}|[uU][0-9a-fA-F]{4})]=], "jo") then
      cur_part, cur_name, cur_value = "body", "", body
      hit(RULE.bad_encoding, 3, (re_find(body, [=[%(?![0-9a-fA-F]{2})]=], "jo")))
    end
    inspect_args("body", body, ngx.decode_args(body, MAX_ARGS))
  else
    -- Any other body: as text when it is text, else its printable runs (protobuf, binary beacons).
    local _, bad = gsub(sub(body, 1, 2048), "[^\9\10\13\32-\126\128-\255]", "")
    if bad == 0 then
      inspect("body", "", body)
    else
      local n = 0
      for run in body:gmatch("[\9\10\13\32-\126]+") do
        if #run >= 8 then
          inspect("body", "", run)
          n = n + 1
          if n > 4096 or st_done or st_over then return end
        end
      end
    end
  end
end

-- The whole request. `with_body`: read and inspect the body (rewrite phase only).
local function inspect_request(m, var, with_body)
  local request_uri = var.request_uri or "/"
  local q = find(request_uri, "?", 1, true)
  local raw_path = q and sub(request_uri, 1, q - 1) or request_uri
  reset(m, var.uri or raw_path)
  local groups = m.groups
  local method = var.request_method
  local headers = ngx.req.get_headers(100)

  -- protocol: method, smuggling shapes
  if groups.protocol then
    cur_part, cur_name, cur_value, cur_lname = "header", "", method, ""
    if not METHODS[method] then hit(RULE.method, 5, 1) end
    local te, cl = headers["transfer-encoding"], headers["content-length"]
    if te and cl or type(cl) == "table" or (te and lower(type(te) == "table" and te[1] or te) ~= "chunked") then
      cur_name, cur_lname, cur_value = "Transfer-Encoding", "transfer-encoding", tostring(type(te) == "table" and te[1] or te or cl)
      hit(RULE.smuggling, 8, 1)
    end
  end

  -- path
  local path = unescape(raw_path)
  cur_part, cur_name, cur_value = "path", "", path
  if find(raw_path, "%00", 1, true) and groups.protocol then hit(RULE.nul, 5, 1) end
  -- a line break in the path: no URL holds one (header injection, PHP-FPM's PATH_INFO bugs)
  if groups.protocol and find(raw_path, "%0", 1, true) and re_find(raw_path, [=[%0[ad]]=], "joi") then
    hit(RULE.crlf, 8, 1)
  end
  run_list(m.special_path, lower(path), false)
  inspect("path", "", path)
  -- a path segment can carry an encoded payload of its own (base64 mixes cases)
  if not st_done and #path > 13 and find(path, "%u") then
    for seg in path:gmatch("[^/]+") do
      if #seg >= 12 then
        local b = decode.base64(seg)
        if b then
          cur_part, cur_name, cur_value = "path", "", b
          if re_find(b, PREFILTER, "jo") then detect(decode.decode(b), false) end
          if st_done then break end
        end
      end
    end
  end

  -- query
  local args = var.args
  if args and args ~= "" and not st_done then
    if groups.protocol and find(args, "%", 1, true) and re_find(args, [=[%(?![0-9a-fA-F]{2}|[uU][0-9a-fA-F]{4})]=], "jo") then
      cur_part, cur_name, cur_value = "query", "", args
      hit(RULE.bad_encoding, 3, 1)
    end
    if groups.protocol and find(args, "%00", 1, true) then
      cur_part, cur_name, cur_value = "query", "", args
      hit(RULE.nul, 5, 1)
    end
    inspect_args("query", args, ngx.req.get_uri_args(MAX_ARGS))
  end

  -- headers (the user agent also against scanner signatures)
  if not st_done then
    local ua = headers["user-agent"]
    if type(ua) == "table" then ua = ua[1] end
    if ua then
      cur_part, cur_name, cur_lname, cur_value = "header", "User-Agent", "user-agent", ua
      run_rules(m.special.ua, lower(ua))
    end
    for name, value in pairs(headers) do
      if find(name, "file[_-]?name") then
        cur_part, cur_name, cur_lname, cur_value = "header", name, name, tostring(value)
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
            if st_done or st_over then break end
          end
        end
        -- the whole value too where a URL has no business holding markup, quotes or spaces
        if not q or find(value, "[<>\"'`{}%s]") then
          if name ~= "referer" or not find(value, "^https?://") or find(value, "[<>\"'`{}%s]") then
            inspect("header", name, value, true)
          end
        end
        if st_done or st_over then break end
      end
    end
  end

  -- cookies
  local cookie = headers["cookie"]
  if cookie and not st_done then
    if type(cookie) == "table" then cookie = table.concat(cookie, "; ") end
    local n = 0
    for pair in cookie:gmatch("[^;]+") do
      local eq = find(pair, "=", 1, true)
      local name = eq and gsub(sub(pair, 1, eq - 1), "^%s+", "") or gsub(pair, "^%s+", "")
      local value = eq and sub(pair, eq + 1) or ""
      inspect_name("cookie", name)
      inspect("cookie", name, value)
      n = n + 1
      if n > 256 or st_done or st_over then break end
    end
  end

  if not st_done then
    local ctype = headers["content-type"]
    if type(ctype) == "table" then ctype = ctype[1] end
    if ctype then check_content_type(ctype) end
  end
  if with_body and not st_done and not st_over then inspect_body(var, headers) end
end

-- The name (argument, cookie, header, field) of the last decision's match, for diagnostics.
function _M.last_name() return st_best_name end

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
    st_over = true
  end
  local re_err = waf_re.failure()
  if re_err then
    ngx.log(ngx.WARN, "rampart waf: a pattern failed on this request (", re_err, "): not fully inspected")
    st_over = true
  end
  local score = st_best
  if st_second then score = score + 2 end
  local rule, part, text, name = st_best_rule, st_best_part, st_best_excerpt, st_best_name
  if score < m.threshold or rule == nil then
    if not st_over then return nil end
    -- not fully inspected: the module's fail mode decides
    if not m.fail_closed then
      ngx.log(ngx.INFO, "rampart waf: budget exhausted, request passed unfinished (fail open)")
      return nil
    end
    rule, part, text, name = RULE.budget, cur_part or "body", "inspection budget exhausted", nil
  end
  var.rampart_fw_kind = "waf"
  var.rampart_fw_rule = rule
  var.rampart_fw_action = m.block and "deny" or "detect"
  var.rampart_waf_part = part
  var.rampart_waf_excerpt = text
  -- the argument, cookie, header or upload field it was in (an exclusion made from the event names it)
  var.rampart_waf_name = (name and part ~= "path") and sub(gsub(name, "[%z\1-\31\127]", ""), 1, EXCERPT) or ""
  if m.block then return "4030" end
  return nil
end

return _M
