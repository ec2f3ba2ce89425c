-- The detectors of rampart.waf over one decoded value (rampart.waf_state's S.value): the SQL and
-- XSS tokenizers (rampart.waf_sqli, rampart.waf_xss), the pattern rules of the module's groups
-- (rampart.waf_rules, compiled by rampart.waf_compile), PHP calls, Log4j lookups folded to what they
-- spell, shell quoting folded away, and the protocol checks that read a value (CR/LF injection, a
-- request line inside a value, mod_proxy's unix sockets).
local S = require "rampart.waf_state"
local sqli = require "rampart.waf_sqli"
local xss = require "rampart.waf_xss"
local rules = require "rampart.waf_rules"
local inject = require "rampart.waf_inject"
local graphql = require "rampart.waf_graphql"
local waf_path = require "rampart.waf_path"
local waf_re = require "rampart.waf_re"
local waf_guard = require "rampart.waf_guard"

local _M = {}

local re_find = waf_re.find
local lower, find, gsub = string.lower, string.find, string.gsub
local rules_marked = waf_guard.rules_marked
local hit = S.hit
local RULE = S.RULE

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

local function run_rules(list, s)
  for i = 1, #list do
    local r = list[i]
    local from = re_find(s, r.re, "jo")
    if from then hit(r.id, r.score, from) end
  end
end

-- The rules of one list over l: each whose group applies here (no RFI or SSRF rule on a
-- URL-shaped header) and, with `stamps`, whose stamp is `stamp` (its literal guard l holds,
-- rampart.waf_guard rules_marked). True once S.done.
local function run_each(list, l, skip_url_rules, stamps, stamp)
  for i = 1, #list do
    if stamps == nil or stamps[i] == stamp then
      local r = list[i]
      if not (skip_url_rules and (r.group == "rfi" or r.group == "ssrf")) then
        local from = re_find(l, r.re, "jo")
        if from then
          hit(r.id, r.score, from)
          if S.done then return true end
        end
      end
    end
  end
  return false
end

-- Runs a rule list (rule_list) over l, lower-cased: the rules anchored at the start when their
-- joined pattern matches, the others without a guard when theirs does, the guarded ones whose
-- guard l holds, in the list's order.
local function run_list(rl, l, skip_url_rules)
  if rl.any_start and re_find(l, rl.any_start, "jo") and run_each(rl.starts, l, skip_url_rules) then return end
  if (not rl.any_open or re_find(l, rl.any_open, "jo")) and run_each(rl.open, l, skip_url_rules) then return end
  local index = rl.guard_index
  local stamp = rules_marked(index, l)
  if stamp then run_each(rl.guarded, l, skip_url_rules, index.stamps, stamp) end
end

-- A remote URL given to a parameter whose name says it holds a local path (remote file inclusion:
-- "_CONF[path]=https://...", "mosConfig_absolute_path=http://..."); l lower-cased.
-- A bare "path" or "dir" (or one qualified by no include word: "page_path", "img_dir") is also where
-- analytics and routers keep a page's URL: there the URL must look like an inclusion (a script or
-- text file, or an open query that cuts the application's suffix off).
local QUALIFIED_PATH_NAME = [=[(?:^|[_\[.-])(?:abs(?:olute)?_?path|(?:root|base|inc|include|lib|app|mod|module|plugin|theme|template|tpl|class|conf|config)_?(?:path|dir|root)|include|require|include_once|require_once)\]?$|\[(?:path|dir)\]$]=]
local INCLUDABLE_URL = [=[^\s{0,4}(?:https?|ftps?)://[^\s#?]{1,512}(?:\.(?:txt|php\d?|phtml|inc|sh|pl|py|jsp|asp|aspx|cgi|gif|jpg)\??$|\?{1,2}$)]=]
-- (what PATH_NAME and QUALIFIED_PATH_NAME say of a name, kept per worker: the same few names,
-- "url", "href", "page", hold the URLs of every beacon; 0 neither, 1 PATH_NAME, 2 both)
local path_names, n_path_names = {}, 0
local function path_name(name)
  local k = path_names[name]
  if k then return k end
  k = 0
  if re_find(name, PATH_NAME, "joi") then k = re_find(name, QUALIFIED_PATH_NAME, "joi") and 2 or 1 end
  -- (a pattern that fails answers "no" to re_find's caller and is remembered for the request: a
  -- name whose answer is not known is not kept)
  if waf_re.failure() then return k end
  if n_path_names >= 4096 then path_names, n_path_names = {}, 0 end
  path_names[name], n_path_names = k, n_path_names + 1
  return k
end
local function path_param_url(l)
  if S.m.groups.rfi and S.name and S.name ~= "" and (S.part == "query" or S.part == "body")
    and find(l, "://", 1, true) and re_find(l, [=[^\s{0,4}(?:https?|ftps?)://]=], "jo") then
    local k = path_name(S.name)
    if k == 2 or k == 1 and re_find(l, INCLUDABLE_URL, "jo") then hit(104005, 5, 1) end
  end
end

-- Shell quoting inside a word ("c''at", "/e\\tc", "[c]at")? (the quotes by PCRE, which skips to a
-- quote, a letter or digit before the run asked behind it; "[x]" from the first "[": a Lua class
-- pattern is tried at every byte)
local QUOTED_IN_WORD = [=[(?<=[0-9A-Za-z])['"\\]+[0-9A-Za-z/]]=]
local function shell_quoted(l)
  if (find(l, "'", 1, true) or find(l, '"', 1, true) or find(l, "\\", 1, true)) and re_find(l, QUOTED_IN_WORD, "jo") then
    return true
  end
  local b = find(l, "[", 1, true)
  return b ~= nil and find(l, "%[%w%]", b) ~= nil
end

-- Every detector over one decoded candidate.
local function detect(d, skip_url_rules, inner, quotes)
  local m = S.m
  local groups = m.groups
  S.value = d
  if groups.sqli then sqli.check(d, hit, inner, quotes) end
  if S.done then return end
  -- (lower-cased once, for the XSS reader and the rest)
  local l = lower(d)
  if groups.xss then xss.check(d, hit, l) end
  if S.done then return end
  if groups.java and find(l, "${", 1, true) then
    local folded = fold_lookups(l)
    if folded ~= l then l = folded; S.value = folded end
  end
  if groups.nosql then
    inject.nosql(l, hit)
    if S.done then return end
  end
  if groups.ldap then
    inject.ldap(l, hit)
    if S.done then return end
  end
  if groups.graphql and (find(l, "_", 1, true) or find(l, ":", 1, true) or #l > 40) and find(l, "{", 1, true) then
    graphql.check(l, hit)
    if S.done then return end
  end
  if groups.php and find(l, "(", 1, true) then
    rules.php_calls(l, hit)
    if S.done then return end
  end
  -- shell quoting inside words ("c''at /e\tc/pa\"ss\"wd") folded away: a second reading for the rules
  if shell_quoted(l) then
    local shell = gsub(gsub(l, "(%w)['\"\\]+", "%1"), "%[(%w)%]", "%1")
    if shell ~= l then
      S.value = shell
      run_list(m.shell_rules, shell, false)
      if S.done then return end
      S.value = d
    end
  end
  run_list(m.value_rules, l, skip_url_rules)
  if S.done then return end
  -- the value as a path the server would open (look-alike dots, backslashes, "..;/", "/./")
  if groups.traversal and (find(l, "/", 1, true) or find(l, ".", 1, true) or find(l, "\\", 1, true)
    or find(l, ";", 1, true) or find(l, "\226", 1, true) or find(l, "\239", 1, true)) then
    local n = waf_path.normalise(l)
    if n then
      S.value = n
      run_list(m.path_rules, n, false)
      if S.done then return end
      S.value = d
    end
  end
  if not skip_url_rules then
    path_param_url(l)
    if S.done then return end
  end
  -- CR/LF followed by a request or status line (smuggling, response splitting) anywhere, or by a
  -- header (header injection) where a value never spans lines: the query, path, headers, cookies.
  if groups.protocol and (find(d, "\n", 1, true) or find(d, "\r", 1, true)) then
    local from = re_find(l, [=[[\r\n]\s{0,4}(?:(?:get|post|head|put|delete|options|patch|connect|trace|propfind)\s{1,4}\S{1,512}\s{1,4}http/\d|http/\d(?:\.\d)?\s{1,4}\d{3})]=], "jo")
    if not from and S.part ~= "body" and S.part ~= "file" then
      from = re_find(l, [=[[\r\n]\s{0,4}[\w-]{2,40}\s{0,4}:]=], "jo")
    end
    -- a blank line then markup: a response body of the attacker's making (response splitting)
    if not from and S.part ~= "body" and S.part ~= "file" then
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

_M.shell_quoted, _M.fold_lookups = shell_quoted, fold_lookups
_M.run_rules, _M.run_list, _M.detect, _M.path_param_url, _M.PATH_NAME = run_rules, run_list, detect, path_param_url, PATH_NAME

return _M
