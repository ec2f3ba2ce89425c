-- How rampart.waf reads a value (a query or form argument, a cookie, a header, a JSON string, a
-- multipart field, the path): cheap first — a value is looked at only when it holds a byte or word
-- some detector needs (PREFILTER); long values in overlapping windows; URLs judged as URLs; JSON
-- inside a value walked; base64 tried; a value already read in the same part not read again; then
-- the detectors (rampart.waf_detect) over its decoding (rampart.waf_decode).
local S = require "rampart.waf_state"
local D = require "rampart.waf_detect"
local decode = require "rampart.waf_decode"
local inject = require "rampart.waf_inject"
local redirect = require "rampart.waf_redirect"
local cjson = require "cjson.safe"
local waf_re = require "rampart.waf_re"

local _M = {}

local re_find, re_gsub = waf_re.find, waf_re.gsub
local sub, lower, find, byte = string.sub, string.lower, string.find, string.byte
local unescape = ngx.unescape_uri
local hit, over_budget, detect, run_list, path_param_url = S.hit, S.over_budget, D.detect, D.run_list, D.path_param_url
local RULE = S.RULE
local CHUNK, OVERLAP = 4096, 256

-- A byte or word some detector needs; a value without any is not inspected further. Two patterns
-- (prefiltered(): either matches): PREFILTER, the special bytes and the sequences that start with
-- one, whose first bytes PCRE looks for before it tries anything (it skips the letters, digits and
-- spaces that make most of a value), and WORDS_RE, the words that follow a word boundary, grouped
-- by their first letter. Apart, each is a fast scan; as one alternation every byte of a value
-- was a place to try all of them (a 128 KB form cost 1.7 ms of this pattern alone).
local WORDS = [=[select|union|sleep|benchmark|waitfor|having|insert|delete|drop\s|exec|shutdown|information_schema|jndi|javascript|vbscript|file:|php:|data:|gopher:|dict:|java\.|javax\.|processbuilder|runtime|transformer|pg_|xp_|sp_|sqlite_|process|function|module\.|require|child_|alias|tempdb|msdb|mysql\.|docker\.internal|ip6-|declare\s{1,8}@|create\s+(?:table|database|function|procedure|trigger)\b|sh\s+-c\b|whoami|ifconfig|ipconfig|if\s+(?:/i\s+)?(?:not\s+)?(?:exist|defined|errorlevel|cmdextversion)\b|constructor|prototype|localhost|127\.0|169\.254|passwd|system32|win\.ini|ftps?:|https?:|ldaps?://|rmi://|iiop://|dns://|tftp://|jar://|netdoc://|fastcgi://|sftp://|mailto://|telnet://|ssh://|nfs://|smb://|redis://|mysql://|postgres(?:ql)?://|mongodb://|memcached://|zookeeper://|rtsp://|(?:document|window)\s*\.|ansible|chef-|visudo|cscli|bsdtar|mkfifo|busybox|regedit]=]
-- (the URL schemes of internal services the SSRF rule judges, "ldap://", "redis://" ...: such a
-- URL may hold no special byte, "ldap://evil.example:1389/Exploit", "redis://10.0.0.5:6379/0")
-- (the boundary as a consumed non-word byte, WORDS_RE, or the start, WORDS_AT_START, two patterns:
-- PCRE then tries the words only after the spaces and punctuation of a value, not at each letter,
-- a third less time than with \b; with the start as a third alternative, "(?:[^\w]|^)", it could
-- not skip to those bytes and cost 60% more on a 128 KB form)
local WORDS_ALTS = [=[(?:(?i:]=] .. waf_re.by_first_letter(WORDS)
  .. [=[)|db\.[\w$]{1,64}[.(\s]|(?<!\.)(?i:com|org)\.[a-zA-Z])]=]
local WORDS_RE = "[^A-Za-z0-9_]" .. WORDS_ALTS
local WORDS_AT_START = "^" .. WORDS_ALTS
-- (a path segment of shell wildcards, "/???/c?t", "/e??/": no special byte, words or stars, but a
-- shell spells a system path with it; WILDCARD_SEGMENT, added after the pre-change prefilter)
local WILDCARD_SEGMENT = [=[/[\w?]{0,10}\?[\w?]{0,10}/]=]
local SPECIAL = "|" .. WILDCARD_SEGMENT .. [=[|\.\.|/\.|/(?:etc|proc|bin|usr|var|windows|winnt|dev|tmp|inetpub)\b|(?i:/bin/|/sys/|\.ssh/|\+adw-|\.internal\b|\.svc\b|(?<=lvh|localtest)\.me|(?<=nip|sslip)\.io)|(?<![\d\s])\*|\*(?![\d\s])|__(?i:proto|import|js_|class|globals|builtins|init|mro|subclasses)|\xe2\x80[\xa4\xa5]|\xe2(?:\x88\x95|\x81\x84|\xa7\xb5)|\xef\xb9\x92|(?i:::(?:int[248]?|integer|text|varchar|bigint|numeric|regclass|oid|bytea|jsonb?|inet|uuid)\b)]=]
local PREFILTER = [=[[<>'"`;(){}\[\]$|&\\%=#!^~\r\n\x00]]=] .. SPECIAL
-- The same without the argument separators ("=", "&"), for a whole query string or form body.
local ARGS_PREFILTER = [=[[<>'"`;(){}\[\]$|\\%#!^~\r\n\x00]]=] .. SPECIAL

-- Does v hold something a detector needs (the position of a find, or nil and a pattern's error)?
local function words(v)
  local from, to, err = re_find(v, WORDS_AT_START, "jo")
  if from or err then return from, to, err end
  return re_find(v, WORDS_RE, "jo")
end
-- (values prefiltered() found nothing in, per worker, as the windows below: names, JSON keys and
-- decoded base64 come back as the values do)
local PLAIN_LEN, PLAIN_MAX = 512, 4096
local plain, n_plain = {}, 0
local function prefiltered(v)
  if plain[v] then return nil end
  local from, to, err = re_find(v, PREFILTER, "jo")
  if from or err then return from, to, err end
  from, to, err = words(v)
  if not from and not err and #v <= PLAIN_LEN then
    if n_plain >= PLAIN_MAX then plain, n_plain = {}, 0 end
    plain[v], n_plain = true, n_plain + 1
  end
  return from, to, err
end
local function args_prefiltered(v)
  local from, to, err = re_find(v, ARGS_PREFILTER, "jo")
  if from or err then return from, to, err end
  return words(v)
end
-- Header values (User-Agent ...) hold "(", ")" and ";" by nature: not a reason to look further.
-- (header values go through PREFILTER too, with those three bytes read as spaces, which keeps
-- the word boundaries: one compiled pattern fewer to keep warm; see header_prefilter)


-- Windows known to be inert, per worker: no byte or word the prefilter looks for and no base64
-- inside (what inspect_window answers depends on the bytes and on whether they are a header's, not
-- on the request or the module). The same User-Agent, client hints, cookies and ids come back on
-- request after request; each is then one table lookup instead of two to four PCRE scans. Only
-- values of at most INERT_LEN bytes, at most INERT_MAX of them (then the tables start again), and
-- none whose reading saw a pattern fail in this request (its answer may be a failure's).
local INERT_LEN, INERT_MAX = 512, 4096
local inert_header, inert_other, n_inert = {}, {}, 0
local function remember_inert(v, header)
  if #v > INERT_LEN or waf_re.failure() then return end
  if n_inert >= INERT_MAX then inert_header, inert_other, n_inert = {}, {}, 0 end
  if header then inert_header[v] = true else inert_other[v] = true end
  n_inert = n_inert + 1
end

-- One window of a value (at most CHUNK bytes).
local function inspect_window(v, skip_url_rules, inner, quotes)
  local header = S.part == "header"
  if header then
    if inert_header[v] then return end
  elseif inert_other[v] then
    return
  end
  local pf
  if header then
    -- "(", ")" and ";" are normal in a header value (User-Agent); a separator at its start is not
    pf = find(v, "^%s*[;|&`]") or prefiltered((find(v, "(", 1, true) or find(v, ")", 1, true) or find(v, ";", 1, true)) and re_gsub(v, "[();]", " ", "jo") or v)
  else
    pf = prefiltered(v)
  end
  -- a token whose only special byte is base64's padding ("=" at its end): read as base64 only
  if pf and byte(v, -1) == 61 and re_find(v, [=[^[A-Za-z0-9+/_-]{8,}={1,2}\z]=], "jo") then pf = nil end
  if not pf then
    -- Still a candidate for base64 (an encoded payload is letters and digits only).
    local b = decode.base64(v)
    if b then
      S.value = b
      if prefiltered(b) then detect(decode.decode(b), skip_url_rules) end
    else
      remember_inert(v, header)
    end
    return
  end
  local d = decode.encoded(v) and decode.decode(v) or v
  detect(d, skip_url_rules, inner, quotes)
  if S.done then return end
  -- (base64 behind a URL encoding too: "...Pg%3D%3D" in a cookie)
  local b = decode.base64(v) or (d ~= v and decode.base64(d))
  if b and prefiltered(b) then detect(decode.decode(b), skip_url_rules) end
end

local inspect

-- A parameter that names where the browser goes next, holding another host (rampart.waf_redirect).
local function check_redirect(part, name, v)
  if S.m.groups.redirect and (part == "query" or part == "body") and redirect.is_name(name) then
    S.part, S.name, S.value = part, name, v
    redirect.check(find(v, "[%%&\\\192\193\224\239]") and decode.decode(v) or v, hit, v)
  end
end

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
  S.value = d
  local l = lower(d)
  run_list(S.m.url_rules, l, skip_url_rules)
  if S.done then return true end
  if not skip_url_rules then
    path_param_url(l)
    if S.done then return true end
  end
  local q = find(v, "?", 1, true) or find(v, "#", 1, true)
  while q and not S.done and not S.over do
    local h = find(v, "#", q + 1, true)
    local args = ngx.decode_args(sub(v, q + 1, h and h - 1 or #v), 64)
    for _, x in pairs(args) do
      if type(x) == "table" then
        for _, y in ipairs(x) do if type(y) == "string" then inspect(part, name, y, skip_url_rules) end end
      elseif type(x) == "string" then
        inspect(part, name, x, skip_url_rules)
      end
      if S.done or S.over then break end
    end
    q = h
  end
  return true
end

-- JSON inside a value (a beacon's payload in a query argument or a form field): its keys and
-- strings one by one, under the value's name, as for a JSON body.
local function walk_value_json(part, name, t, depth, skip_url_rules)
  if depth > 16 or S.done or S.over then return end
  for k, x in pairs(t) do
    if type(k) == "string" then
      S.part, S.name, S.value = part, name, k
      if part == "header" then S.lname = lower(name) end
      if S.m.groups.nosql then inject.name(k, hit) end
      if prefiltered(k) then inspect(part, name, k, skip_url_rules) end
    end
    local tx = type(x)
    if tx == "string" then
      inspect(part, name, x, skip_url_rules)
    elseif tx == "table" then
      walk_value_json(part, name, x, depth + 1, skip_url_rules)
    end
    if S.done or S.over then return end
  end
end

-- Inspects a value found in `part` under `name`.
local function inspect_value(part, name, v, skip_url_rules)
  if S.done or S.over or v == nil then return end
  local n = #v
  if n == 0 then return end
  -- a value already read in this part of this request (repeated JSON keys and values, arrays of
  -- records) is not read again: Lua strings are interned, the lookup is one hash probe
  -- (by name too: an exclusion may cover the value under one name and not under another)
  -- (a table per part, made on its first value: value -> the name it was last read under)
  local key = name or ""
  local seen = S.seen[part]
  if seen == nil then
    seen = {}
    S.seen[part] = seen
  elseif seen[v] == key then
    return
  end
  seen[v] = key
  S.bytes = S.bytes + n
  if S.bytes > S.BYTES_BUDGET then S.over = true return end
  S.values = S.values + 1
  if over_budget() then return end
  S.part, S.name = part, name
  check_redirect(part, name, v)
  if S.done then return end
  if part == "header" then S.lname = lower(name) end
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
    S.part, S.name, S.value = part, name, v
  end
  if n <= CHUNK then
    S.value = v
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
    if S.done or over_budget(true) then return end
    i = i + CHUNK - OVERLAP
  end
end

-- A posted document's source (a body or file value only: an editor's save, a code playground's
-- run): an HTML page from its doctype or its <html> and <head>, or a JavaScript/TypeScript module
-- from its import statements. Its markup, event handlers and script tags are the document's
-- content; a reflected payload rides in a query, a cookie or a header, where this never applies,
-- and an injection into a page's text starts with a tag or a quote, not a doctype or imports.
local SOURCE_DOC = [=[^\s{0,64}(?:(?i:<!doctype\s{1,8}html\b)|<html\b[^<>]{0,200}>\s{0,64}<head\b|import\s[^;\n]{1,200}?\sfrom\s{0,4}['"][^'"\n]{1,200}['"]\s{0,4};?\s{1,64}import\s)]=]
_M.SOURCE_DOC = SOURCE_DOC

function inspect(part, name, v, skip_url_rules)
  if S.source_doc or (part ~= "body" and part ~= "file") or v == nil or #v < 64 then
    return inspect_value(part, name, v, skip_url_rules)
  end
  local c = byte(v, (find(v, "%S")) or 1)
  if (c ~= 60 and c ~= 105) or not re_find(v, SOURCE_DOC, "jo") then
    return inspect_value(part, name, v, skip_url_rules)
  end
  S.source_doc = true
  inspect_value(part, name, v, skip_url_rules)
  S.source_doc = false
end
_M._inspect = inspect

-- Names (of arguments, cookies, JSON keys) get the NoSQL check and, with a special byte, the rest.
local function inspect_name(part, name)
  if S.done then return end
  S.part, S.name, S.value = part, name, name
  if S.m.groups.nosql then inject.name(name, hit) end
  if S.m.groups.php then inject.php_name(name, hit) end
  -- an argument or cookie name never spans lines
  if (part == "query" or part == "cookie") and S.m.groups.protocol and (find(name, "\r", 1, true) or find(name, "\n", 1, true)) then
    hit(RULE.crlf, 8, 1)
    if S.done then return end
  end
  if prefiltered(name) then inspect(part, name, name) end
end

-- The parts of the request -----------------------------------------------------------------------

-- A value read only as a possible base64 encoding.
local function inspect_base64(part, name, v)
  local b = decode.base64(v)
  if b then
    S.part, S.name, S.value = part, name, b
    if prefiltered(b) then detect(decode.decode(b), false) end
  end
end

-- The arguments (`args`, decoded, or a function that parses them, called with `args_of`) of a
-- query string or urlencoded body (`raw`, as sent). When the
-- whole string, decoded, holds nothing the prefilter looks for but the separators, and no encoded
-- separator or second "=" can hide one inside a value, no name or value holds any either: the
-- arguments are then only tried as base64 (one regex pass for the whole string instead of one per
-- name and per value: the calls, not the bytes, are what a form costs, a long one as much as a
-- short one: each pass stops at its first find, so a string that is not clean costs the bytes
-- before it and is then read argument by argument). A pattern that fails (an error) leaves the
-- string not clean.
local SEPARATOR_INSIDE = [=[%(?:2[56]|3d)|=[^&=]*=]=]
local function inspect_args(part, raw, args, args_of)
  local clean, b64, names = false, true, true
  local redirect_on = S.m.groups.redirect and (part == "query" or part == "body")
  -- (a second "=" in an argument: "[^&=]*" stops at the first one, where "[^&]*" ran to the "&"
  -- and back, a byte at a time, at every "=" of the string)
  local sep, _, err = re_find(raw, SEPARATOR_INSIDE, "joi")
  if not sep and not err then
    -- (ngx.unescape_uri reads "+" as a space too)
    local d = (find(raw, "+", 1, true) or find(raw, "%", 1, true)) and unescape(raw) or raw
    local hit_at
    hit_at, _, err = args_prefiltered(d)
    clean = not hit_at and not err
    -- a base64 value mixes cases (rampart.waf_decode base64): none without a capital letter
    if clean then
      -- (a pattern that fails answers "maybe")
      local at, e
      at, _, e = re_find(d, "[A-Z]", "jo")
      b64 = at ~= nil or e ~= nil
      -- (with a capital letter every argument is read anyway, is_name() then asks each name)
      if b64 or not redirect_on then
        names = redirect_on
      else
        at, e = redirect.name_in_args(d)
        names = at ~= nil or e ~= nil
      end
      -- nothing to read argument by argument: the arguments need not even be parsed
      if not b64 and not names then return end
    end
  end
  if type(args) == "function" then args = args(args_of) end
  local n = 0
  for k, v in pairs(args) do
    n = n + 1
    if clean then
      local redir = names and redirect_on and redirect.is_name(k)
      if type(v) == "table" then
        for _, x in ipairs(v) do
          if type(x) == "string" then
            if redir then check_redirect(part, k, x) end
            if b64 then inspect_base64(part, k, x) end
          end
        end
      elseif type(v) == "string" then
        if redir then check_redirect(part, k, v) end
        if b64 then inspect_base64(part, k, v) end
      end
      if n % 256 == 0 and over_budget(true) then return end
    else
      if type(k) == "string" then inspect_name(part, k) end
      if type(v) == "table" then
        for _, x in ipairs(v) do if type(x) == "string" then inspect(part, k, x) end end
      elseif type(v) == "string" then
        inspect(part, k, v)
      end
    end
    if S.done or S.over then return end
  end
end

_M.SEPARATOR_INSIDE = SEPARATOR_INSIDE
_M.PREFILTER, _M.ARGS_PREFILTER, _M.WORDS_RE, _M.WORDS_AT_START = PREFILTER, ARGS_PREFILTER, WORDS_RE, WORDS_AT_START
_M.prefiltered, _M.args_prefiltered, _M.WILDCARD_SEGMENT = prefiltered, args_prefiltered, WILDCARD_SEGMENT
_M.inspect, _M.inspect_name, _M.inspect_args, _M.inspect_base64 = inspect, inspect_name, inspect_args, inspect_base64

return _M
