-- The material and the comparisons of test/waf-prefilter.test.ts (run inside an nginx worker):
-- today's cheap checks of the WAF beside the reference (waf_reference.lua) on generated values, and
-- the redirect-name pattern against every name rampart.waf_redirect accepts. Returns a report.
return function()
  local I = require "rampart.waf_inspect"
  local D = require "rampart.waf_detect"
  local decode = require "rampart.waf_decode"
  local redirect = require "rampart.waf_redirect"
  local rules = require "rampart.waf_rules"
  local guard = require "rampart.waf_guard"
  local session = require "rampart.waf_session"
  local GUARDS = {}
  for _, g in pairs(rules.GUARDS) do GUARDS[#GUARDS + 1] = g end
  -- the rules of a list found by their guard strings (rules_marked), for every guard and for every
  -- other one (a list is a module's rules: some guards only, the same guard string in several)
  local HALF = {}
  for i = 1, #GUARDS, 2 do HALF[#HALF + 1] = GUARDS[i] end
  local INDEXES = { { GUARDS, guard.rule_index(GUARDS) }, { HALF, guard.rule_index(HALF) } }
  local ref = require "waf_reference"
  -- the scanner rule as it was (a word boundary on each side of the names, over the bare value)
  -- and as it is (the boundary before as a byte, over the value read with a space before it)
  local SCANNER_REF = "\\b(?:" .. rules.SCANNER_UA_NAMES .. ")\\b"
  local SCANNER_NOW = rules.SPECIAL.ua[1].re
  local char, rep, upper = string.char, string.rep, string.upper

  local TOKENS = {
    "select", "union", "sleep", "benchmark", "waitfor", "having", "insert", "delete", "drop ", "drop", "exec",
    "shutdown", "information_schema", "jndi", "javascript", "vbscript", "file:", "php:", "data:", "gopher:", "dict:",
    "java.", "javax.", "processbuilder", "runtime", "transformer", "pg_", "xp_", "sp_", "sqlite_", "process",
    "function", "module.", "require", "child_", "alias", "tempdb", "msdb", "mysql.", "docker.internal", "ip6-",
    "sh -c ", "sh  -c", "sh -cx", "whoami", "ifconfig", "ipconfig", "if exist", "if /i not defined", "if errorlevel",
    "if cmdextversionx", "constructor", "prototype", "localhost", "127.0", "169.254", "passwd", "system32",
    "win.ini", "ftp:", "ftps:", "http:", "https:", "document.", "window .", "documentx", "ansible", "chef-", "visudo",
    "cscli", "bsdtar", "mkfifo", "busybox", "regedit", "..", "/.", "/etc", "/etcx", "/proc/", "/bin/", "/sys/",
    ".ssh/", "+adw-", "+ADw-", ".internal", ".internals", ".svc", "lvh.me", "localtest.me", "nip.io", "sslip.io",
    "xnip.io", "*", "a*", "*a", "1*2", " * ", "com.x", "org.Y", ".com.x", "_com.x", "com.1", "__proto", "__PROTO",
    "__init__", "db.users.", "db.x(", "db.x ", "db.", "xdb.a.", "\226\128\164", "\226\136\149", "\239\185\146",
    "<", ">", "'", "\"", ";", "(", "{", "[", "$", "|", "&", "\\", "%", "=", "#", "!", "^", "~", "\r", "\n", "\0",
    "word", "1234", "some text", "Mozilla/5.0", "a.b.c", "x_y", "sel ect", "uni on",
    "/???/", "/c?t", "?", "/e??/p?sswd", "/a?b=c/", "/search?q=1",
    "file_name", "x-filename", "file-name", "fileName", "T(", "t (", "[ '", "[\"", "[`", "\r\n", "_", ":", "-", ")",
    "T(java.lang.Runtime)", "t (javax.naming.x)", "./", "//", ".;", "/./", "..;/", "https://a.example//b/./c",
    "<![CDATA[", "]]>", "<a>", "</a>", "<ns:to >", "='", "=\"", "'.'", "\" . \"", "[a]",
  }
  local AROUND = { "", " ", "a", "Z", "1", "_", ".", "/", "-", "+", "=", "&", "\195\169", "\128", "(", "\n" }
  -- every guard string of the rules, alone and glued to its neighbours
  for _, g in pairs(rules.GUARDS) do
    for _, lit in ipairs(g) do TOKENS[#TOKENS + 1] = lit end
  end
  local ALPHABET = {}
  for _, t in ipairs(TOKENS) do ALPHABET[#ALPHABET + 1] = t end
  for _, c in ipairs({ "a", "b", "e", "s", "x", "A", "S", "0", "7", " ", " ", ".", "/", "_", "-", ":", "+", "=" }) do
    ALPHABET[#ALPHABET + 1] = c
  end

  -- Class patterns and pattern searches rewritten as plain searches (a Lua class pattern is tried at
  -- every byte; a plain search is a memchr): each rewrite's answer beside the search it replaced.
  local find, byte, sub, gsub = string.find, string.byte, string.sub, string.gsub
  local CVE_SPEL
  for _, p in ipairs(require("rampart.waf_cve").PATTERNS) do
    if p.id == 118009 then CVE_SPEL = p.re end
  end
  -- every match of a gmatch, joined (false for none), by string.gmatch and by waf_re.gmatch_from
  local function xml_all(lit, pat)
    local function joined(it)
      local out = {}
      for a, b in it do out[#out + 1] = a .. "\0" .. (b or "") end
      return #out > 0 and table.concat(out, "\1") or false
    end
    return function(s) return joined(s:gmatch(pat)) end,
      function(s) return joined(require("rampart.waf_re").gmatch_from(s, lit, pat)) end
  end
  local PLAIN = {
    -- rampart.waf: a header named as holding a file name
    { "file name", function(s) return find(s, "file[_-]?name") ~= nil end,
      function(s) return find(s, "name", 1, true) ~= nil and find(s, "file[_-]?name") ~= nil end },
    -- rampart.waf_inspect: a header value's "(", ")" or ";"; a name's line break
    { "header separators", function(s) return find(s, "[();]") ~= nil end,
      function(s) return (find(s, "(", 1, true) or find(s, ")", 1, true) or find(s, ";", 1, true)) ~= nil end },
    { "line break", function(s) return find(s, "[\r\n]") ~= nil end,
      function(s) return (find(s, "\r", 1, true) or find(s, "\n", 1, true)) ~= nil end },
    -- rampart.waf_detect (GraphQL's candidates), rampart.waf_decode (base64url)
    { "graphql", function(s) return find(s, "[_:]") ~= nil end,
      function(s) return (find(s, "_", 1, true) or find(s, ":", 1, true)) ~= nil end },
    { "base64url", function(s) return find(s, "[_-]") ~= nil end,
      function(s) return (find(s, "_", 1, true) or find(s, "-", 1, true)) ~= nil end },
    -- rampart.waf_charset and rampart.waf_body: a NUL in the first 256 / 512 bytes
    { "nul 256", function(s) return find(sub(s, 1, 256), "%z") ~= nil end,
      function(s) return (find(s, "\0", 1, true) or 257) <= 256 end },
    { "nul 512", function(s) return find(sub(s, 1, 512), "%z") ~= nil end,
      function(s) return (find(s, "\0", 1, true) or 513) <= 512 end },
    -- rampart.waf_body: a multipart part's content without the line break before the boundary
    { "part end", function(s) return (gsub(s, "\r?\n$", "")) end,
      function(s)
        if byte(s, -1) == 10 then return sub(s, 1, byte(s, -2) == 13 and -3 or -2) end
        return s
      end },
    -- rampart.waf_xss: a bracketed quoted name (obj["name"])
    { "bracket quote", function(s) return find(s, "%[%s*[\"'`]") ~= nil end,
      function(s) return find(s, "[", 1, true) ~= nil and find(s, "%[%s*[\"'`]") ~= nil end },
    -- rampart.waf_cve: the Spring expression check asks for "(" (its pattern's "t\s{0,4}\(")
    { "spel", function(s) return find(s, "[Tt]%s*%(") ~= nil and ngx.re.find(string.lower(s), CVE_SPEL, "jo") ~= nil end,
      function(s) return find(s, "(", 1, true) ~= nil and ngx.re.find(string.lower(s), CVE_SPEL, "jo") ~= nil end },
    -- rampart.waf_decode (base64's capital letter), rampart.waf (a header's markup, quote or space)
    { "capital", function(s) return find(s, "%u") ~= nil end, function(s) return ngx.re.find(s, "[A-Z]", "jo") ~= nil end },
    { "header markup", function(s) return find(s, "[<>\"'`{}%s]") ~= nil end,
      function(s) return ngx.re.find(s, [=[[<>"'`{} \t\n\x0b\f\r]]=], "jo") ~= nil end },
    -- rampart.waf_inspect: a header value's "(", ")" and ";" read as spaces, by PCRE
    { "header separators gsub", function(s) return (gsub(s, "[();]", " ")) end,
      function(s) return require("rampart.waf_re").gsub(s, "[();]", " ", "jo") end },
    -- rampart.waf_rules: quoted fragments joined by "." (the PHP check)
    { "quoted concat", function(s) return find(s, "['\"]%s*%.%s*['\"]") ~= nil end, rules.quoted_concat },
    -- rampart.waf_body and rampart.waf_redirect: the XML body's gmatches, tried where their first bytes are
    { "xml text", xml_all(">", ">([^<]+)<") },
    { "xml attribute", xml_all("=", "=%s*\"([^\"]*)\"") },
    { "xml attribute '", xml_all("=", "=%s*'([^']*)'") },
    { "cdata", xml_all("<![CDATA[", "<!%[CDATA%[(.-)%]%]>") },
    { "xml element", xml_all("<", "<([%w_.:-]+)%s*>([^<]*)</") },
    -- rampart.waf_path: the path normalisation's passes behind plain searches
    { "normalise", function(s) return ref.normalise(string.lower(s)) or false end,
      function(s) return require("rampart.waf_path").normalise(string.lower(s)) or false end },
  }

  local PAD = rep("a ", 130)
  local report = { long = 0, cases = 0, prefilter_hits = 0, args_hits = 0, html_changed = 0, base64_decoded = 0, shell = 0,
    names = 0, guards = 0, wildcards = 0, scanners = 0, sessions = 0, plain = {}, diffs = {} }
  for _, p in ipairs(PLAIN) do report.plain[p[1]] = 0 end
  local function diff(kind, s)
    if #report.diffs < 20 then report.diffs[#report.diffs + 1] = kind .. ": " .. ngx.encode_base64(s) end
  end

  local function check(s)
    report.cases = report.cases + 1
    -- (the same answers, but for the shell-wildcard path segments added since: found now)
    local wild = ngx.re.find(s, I.WILDCARD_SEGMENT, "jo") ~= nil
    if wild then report.wildcards = report.wildcards + 1 end
    local old = ngx.re.find(s, ref.PREFILTER, "jo") ~= nil
    if old then report.prefilter_hits = report.prefilter_hits + 1 end
    if (old or wild) ~= (I.prefiltered(s) ~= nil) then diff("prefilter", s) end
    old = ngx.re.find(s, ref.ARGS_PREFILTER, "jo") ~= nil
    if old then report.args_hits = report.args_hits + 1 end
    if (old or wild) ~= (I.args_prefiltered(s) ~= nil) then diff("args_prefilter", s) end
    -- the same value behind and before neutral words: a long value, where the words' two patterns
    -- (after a non-word byte; at the start) must both be asked
    if #s <= 256 then
      for _, l in ipairs({ PAD .. s, s .. PAD }) do
        wild = ngx.re.find(l, I.WILDCARD_SEGMENT, "jo") ~= nil
        old = ngx.re.find(l, ref.PREFILTER, "jo") ~= nil
        if (old or wild) ~= (I.prefiltered(l) ~= nil) then diff("prefilter", l) end
        report.long = report.long + 1
      end
    end
    local h = ref.html(s)
    if h ~= s then report.html_changed = report.html_changed + 1 end
    if h ~= decode.html(s) then diff("html", s) end
    local b = ref.base64(s)
    if b then report.base64_decoded = report.base64_decoded + 1 end
    if b ~= decode.base64(s) then diff("base64", s) end
    for i = 1, #GUARDS do
      local g = ref.guarded(GUARDS[i], s)
      if g then report.guards = report.guards + 1 end
      if g ~= guard.guarded(GUARDS[i], s) then diff("guarded", s) end
    end
    for _, ix in ipairs(INDEXES) do
      local list, index = ix[1], ix[2]
      local stamp = guard.rules_marked(index, s)
      for i = 1, #list do
        if (stamp ~= nil and index.stamps[i] == stamp) ~= ref.guarded(list[i], s) then diff("rules_marked", s) end
      end
    end
    if (ngx.re.find(s, redirect.NAME_IN_ARGS, "jo") ~= nil) ~= (redirect.name_in_args(s) ~= nil) then
      diff("redirect name", s)
    end
    if ngx.re.find(s, session.IN_ARGS, "joi") ~= session.in_args(s) then diff("session name", s) end
    if (ngx.re.find(s, [=[%(?:2[56]|3d)|=[^&]*=]=], "joi") ~= nil) ~= (ngx.re.find(s, I.SEPARATOR_INSIDE, "joi") ~= nil) then
      diff("separator inside", s)
    end
    local l = string.lower(s)
    local at = ngx.re.find(l, SCANNER_REF, "jo")
    if at then report.scanners = report.scanners + 1 end
    if at ~= ngx.re.find(" " .. l, SCANNER_NOW, "jo") then diff("scanner", s) end
    local q = ref.shell_quoted(s)
    if q then report.shell = report.shell + 1 end
    if q ~= D.shell_quoted(s) then diff("shell_quoted", s) end
    for i = 1, #PLAIN do
      local p = PLAIN[i]
      local was = p[2](s)
      -- (how often the old search found something, or changed the value)
      if was == true or (type(was) == "string" and was ~= s) then report.plain[p[1]] = report.plain[p[1]] + 1 end
      if was ~= p[3](s) then diff(p[1], s) end
    end
  end

  -- every token, in three casings, between every pair of neighbours
  for _, t in ipairs(TOKENS) do
    for _, v in ipairs({ t, upper(t), upper(t:sub(1, 1)) .. t:sub(2) }) do
      for _, a in ipairs(AROUND) do
        for _, z in ipairs(AROUND) do check(a .. v .. z) end
      end
    end
  end
  -- entities, named and numeric, whole and cut
  for name in pairs(decode.NAMED) do
    for _, v in ipairs({ "&" .. name, "&" .. name .. ";", "&" .. upper(name) .. ";", "&" .. name .. "x", "a&&" .. name,
      "&" .. name .. "1", "q=1&" .. name .. "=2" }) do
      check(v)
    end
  end
  for _, v in ipairs({ "&#60;", "&#x3c", "&amp;lt;", "&foo;", "a&b", "&&", "&#", "&x", "&ab" }) do check(v) end
  -- base64 of text and of binary, with and without padding, spaces for "+", url-safe, long and short
  math.randomseed(20261129)
  for n = 4, 160, 3 do
    local text, bin = {}, {}
    for i = 1, n do
      text[i] = char(math.random(32, 126))
      bin[i] = char(math.random(0, 255))
    end
    for _, raw in ipairs({ table.concat(text), table.concat(bin), "<script>alert(" .. n .. ")</script>" }) do
      local e = ngx.encode_base64(raw)
      check(e)
      check((e:gsub("=+$", "")))
      check((e:gsub("%+", " ")))
      check((e:gsub("%+", "-"):gsub("/", "_")))
      check(e .. "!")
      check(rep(e, 3))
    end
  end
  -- random strings of tokens and bytes
  for _ = 1, 40000 do
    local parts = {}
    for i = 1, math.random(1, 12) do parts[i] = ALPHABET[math.random(#ALPHABET)] end
    check(table.concat(parts))
  end

  -- XML: elements (prefixed, a space before ">"), attributes in both quotes, CDATA, cut ends
  for _, tag in ipairs({ "a", "ns:to", "x-y.z", "url", "" }) do
    for _, text in ipairs({ "", "t", " ", "a<b", "x]]>y", "1 = '2'", "http://e.example/" }) do
      for _, v in ipairs({ "<" .. tag .. ">" .. text .. "</" .. tag .. ">", "<" .. tag .. " >" .. text .. "</",
        "<r k=\"" .. text .. "\" j = '" .. text .. "'><" .. tag .. ">" .. text .. "</" .. tag .. "></r>",
        "<![CDATA[" .. text .. "]]><" .. tag .. ">", "<" .. tag .. ">" .. text,
        text .. "<![CDATA[" .. tag .. "]]>" .. text .. "<![CDATA[]]>" }) do
        check(v)
      end
    end
  end
  -- the scanner names, alone, in a User-Agent, and glued to words on either side
  for name in rules.SCANNER_UA_NAMES:gmatch("[^|]+") do
    if name:find("^[%w-]+$") then
      for _, v in ipairs({ name, name .. "/1.7", "Mozilla/5.0 (compatible; " .. name .. "/2.1)", "x" .. name, name .. "x",
        "a_" .. name, name .. "_b", "1" .. name .. "-2", upper(name) }) do
        check(v)
      end
    end
  end
  -- the session cookie names as arguments, first or after a separator, encoded or not
  for _, name in ipairs({ "jsessionid", "PHPSESSID", "asp.net_sessionid", "asp%2Enet_SessionId", "koa%3Asess",
    "__Host-next-auth.session-token", "laravel_session", "cfid" }) do
    for _, v in ipairs({ name .. "=x", "a=1&" .. name .. "=x", "a=1;" .. name .. "=x", "x" .. name .. "=1",
      "a=1&" .. name, name, "a=" .. name .. "=1" }) do
      check(v)
      if ngx.re.find(v, session.IN_ARGS, "joi") then report.sessions = report.sessions + 1 end
    end
  end
  -- every redirect parameter name, as a clean query or form holds it
  for name in pairs(redirect.NAMES) do
    for _, v in ipairs({ name .. "=x", "a=1&" .. name .. "=x", "a=1&" .. upper(name) .. "=x&b=2", "f[" .. name .. "]=x",
      "a=1&f.b." .. name .. "=x", "f[" .. name .. "]", "a&" .. name }) do
      report.names = report.names + 1
      check(v)
      check("a=1&" .. v .. "=2&z")
      local at = ngx.re.find(v, redirect.NAME_IN_ARGS, "jo")
      if not at then diff("redirect name not found", v) end
      if not redirect.name_in_args(v) then diff("redirect name not found in two", v) end
    end
  end
  -- rampart.waf_inject php_name (an argument named for a PHP superglobal): its first-byte check
  -- before the pattern answers what the pattern alone did, around every superglobal
  local inject = require "rampart.waf_inject"
  local SUPERGLOBALS = {}
  for w in ("_get _post _request _cookie _server _files _env _session globals"):gmatch("%S+") do SUPERGLOBALS[w] = true end
  local function php_ref(name)
    local dollar, word, rest = string.lower(name):match("^%s*(%$?)([%w_]+)%s*(.?)")
    return word ~= nil and SUPERGLOBALS[word] == true and (dollar == "$" or rest == "[")
  end
  report.plain["php name"] = 0
  local words = { "get", "g", "_", "gx", "session", "" }
  for w in pairs(SUPERGLOBALS) do words[#words + 1] = w end
  for _, w in ipairs(words) do
    for _, pre in ipairs({ "", "$", " $", "\t", " \n\v\f\r$", "x", "$$", "[", "_", "$ ", "\0" }) do
      for _, post in ipairs({ "", "[", " [", "[x]", "x", " ", "]", "\t[" }) do
        for _, word in ipairs({ w, upper(w) }) do
          local name = pre .. word .. post
          local got = false
          inject.php_name(name, function() got = true end)
          local was = php_ref(name)
          if was then report.plain["php name"] = report.plain["php name"] + 1 end
          if was ~= got then diff("php name", name) end
        end
      end
    end
  end
  -- and not where no argument is named so
  for _, v in ipairs({ "a=1&b=2", "page=next", "returned=1", "a=redirect", "xurl=1" }) do
    if ngx.re.find(v, redirect.NAME_IN_ARGS, "jo") then diff("redirect name found", v) end
    if redirect.name_in_args(v) then diff("redirect name found in two", v) end
  end
  return report
end
