-- NoSQL and LDAP injection for rampart.waf (groups nosql, ids 114000..114999, and ldap,
-- 115000..115999), over a decoded, lower-cased value (and argument or key names).
--
-- NoSQL (MongoDB's query language, as OWASP WSTG 4.7.5.6 and PayloadsAllTheThings "NoSQL
-- Injection" describe it): an operator given where the application expects a value — a key
-- "$ne"/"$gt"/"$regex"/"$where" in JSON, "user[$ne]=" in a query or form (PHP's and Express's
-- argument parsers turn it into an object) — and server-side JavaScript in a "$where" or
-- mapReduce string: a string broken and followed by a JavaScript statement or comparison
-- ("'; return true; var x='", "' || '1'=='1", "this.password.match(/.*/)"), shell-like calls on
-- the db object ("db.users.find()"), sleep loops.
--
-- LDAP (RFC 4515 filters; OWASP "LDAP Injection Prevention", PayloadsAllTheThings "LDAP
-- Injection"): a value that closes the application's filter and opens another — ")(" followed by
-- an operator "|", "&", "!" or by an attribute comparison ("*)(uid=*))(|(uid=*",
-- "admin)(&)", ")(objectClass=*"), a wildcard filter on a well-known attribute.
--
-- Each check is behind a plain-string guard ("$", ")(", "(", "this.", "db."), so values
-- without those bytes cost one or two string searches.
local waf_re = require "rampart.waf_re"
local run = waf_re.run

local _M = {}

local find, lower, byte = string.find, string.lower, string.byte

local R = { operator = 114001, js = 114002, operator_value = 114003, js_this = 114004, db_call = 114005, js_loop = 114006,
  filter_break = 115001, filter = 115002, extensible = 115003 }
_M.RULES = R

-- (words as a set: rampart.waf_sqli_lex's)
local set = require("rampart.waf_sqli_lex").set

local OPERATORS = set([[$where $ne $gt $lt $gte $lte $regex $exists $in $nin $or $and $nor $not $expr
  $function $accumulator $elemmatch $eq $type $mod $all $size $jsonschema $text $lookup $options $comment]])
local STRONG = set("$where $function $accumulator $expr $regex $ne $nin $gt $gte $lt $lte $exists $or $nor")
_M.OPERATORS = OPERATORS

-- An argument name or JSON key: "$ne", "user[$ne]", "user[password][$regex]", "filter.$where".
function _M.name(name, hit)
  if find(name, "$", 1, true) == nil then return end
  local key = lower(name)
  local op = key:match("%[(%$%w+)%]") or key:match("^(%$%w+)$") or key:match("%.(%$%w+)$")
  if op and OPERATORS[op] then hit(R.operator, STRONG[op] and 8 or 5, 1) end
end

-- An argument or cookie named for one of PHP's superglobals ("$_COOKIE=", "_SESSION[admin]=",
-- "GLOBALS[x]="): register_globals, extract() and parse_str() let it overwrite the superglobal
-- (group php, rule 105004; a superglobal named inside a value is rampart.waf_rules' 105004).
local SUPERGLOBALS = set("_get _post _request _cookie _server _files _env _session globals")
function _M.php_name(name, hit)
  -- (every superglobal starts with "_" or "g": a name whose first byte after the spaces and the "$"
  -- the pattern allows is another needs no pattern, no lower-cased copy and no captures)
  local i = 1
  local c = byte(name, 1)
  while c == 32 or c and c >= 9 and c <= 13 do
    i = i + 1
    c = byte(name, i)
  end
  if c == 36 then c = byte(name, i + 1) end
  if c ~= 95 and c ~= 103 and c ~= 71 then return end
  local key = lower(name)
  local dollar, word, rest = key:match("^%s*(%$?)([%w_]+)%s*(.?)")
  if word and SUPERGLOBALS[word] and (dollar == "$" or rest == "[") then hit(105004, 8, 1) end
end

-- Server-side JavaScript where a string value was expected (a "$where" clause built by
-- concatenation): a quote or number, then a statement separator or boolean operator, then
-- JavaScript that only an injection writes.
local JS_BREAK = [=[(?:^[\w.-]{0,32}|['"])\s{0,8}(?:;|\|\||&&)\s{0,8}(?:(?:var|let|const)\s{1,8}[\w$]{1,40}\s{0,4}=\s{0,4}new\s{1,8}date\s{0,4}\(|do\s{0,4}\{|return\s{1,8}(?:true|false|1|0|this|db|sleep|[\w.]{1,40}\s{0,4}(?:==|!=))|this\.[\w$]{1,64}\s{0,4}(?:==|!=|\.match\s{0,4}\(|\.length|\[)|sleep\s{0,4}\(\s{0,4}\d|while\s{0,4}\(\s{0,4}(?:true|1)\s{0,4}\)|db\.[\w$]{1,64}\s{0,4}[.(]|(?:var|let|const)\s{1,8}[\w$]{1,40}\s{0,4}=\s{0,4}['"]|['"][^'"]{0,64}['"]\s{0,4}===?\s{0,4}['"])]=]
local JS_THIS = [=[\bthis\.[\w$]{1,64}\.match\s{0,4}\(\s{0,4}/|\bthis\.[\w$]{1,64}\s{0,4}[!=]==?\s{0,4}(?:this\.|['"]|\d)|^\s{0,4}(?:function\s{0,4}\(\s{0,4}\)\s{0,4})?\{?\s{0,4}return\s{1,8}this\.]=]
-- A busy wait (the time-based blind form of a $where injection): "do{d = new Date();}while(d - s < 5000)".
local JS_LOOP = [=[\bdo\s{0,4}\{[^{}]{0,200}\bnew\s{1,8}date\s{0,4}\([^{}]{0,200}\}\s{0,4}while\s{0,4}\(]=]
local DB_CALL = [=[\bdb\.(?:[\w$]{1,64}\.)?(?:find|findone|insert|insertone|update|updateone|remove|drop|dropdatabase|getcollection|getcollectionnames|getsiblingdb|eval|runcommand|admincommand|mapreduce|aggregate|createuser|dropuser)\s{0,4}\(]=]
-- An operator inside a value that an application parses as JSON or as a query ("{"$gt": ""}"
-- decoded by the walker is a key; here the shapes that are not JSON: "{$ne: 1}", "[$regex]=").
local OP_VALUE = [=[(?:^|[{,\[]\s{0,4})['"]?\$(?:where|ne|gt|gte|lt|lte|regex|nin|in|exists|expr|function|accumulator|or|nor|and|not|elemmatch)['"]?\s{0,4}(?::|\]\s{0,4}=)]=]

-- (each behind the plain strings its pattern cannot match without; every match is a hit)
local NOSQL = waf_re.checks({
  { id = R.operator_value, re = OP_VALUE, need = "$" },
  { id = R.js_this, re = JS_THIS, need = "this." },
  { id = R.js_loop, re = JS_LOOP, need = { "while", "date" } },
  { id = R.db_call, re = DB_CALL, need = "db." },
  { id = R.js, re = JS_BREAK, need = { { ";", "|", "&" }, { "'", '"' } } },
})

function _M.nosql(l, hit) run(NOSQL, l, hit, false) end

-- LDAP attributes an injection aims at (RFC 4519, Active Directory).
local ATTRS = [=[(?:uid|cn|sn|ou|dc|o|mail|objectclass|objectcategory|userpassword|unicodepwd|samaccountname|userprincipalname|givenname|displayname|member|memberof|telephonenumber|description|homedirectory|loginshell|gidnumber|uidnumber|distinguishedname|name|user|username|password|pwd|email|department|title|manager|accountstatus)]=]
-- ")(" then an operator or a comparison: the application's filter closed, another one opened.
local FILTER_BREAK = [=[\)\s{0,4}\(\s{0,4}(?:[|&!]\s{0,4}(?:\(|\)|$)|[|&!]?\s{0,4}]=] .. ATTRS .. [=[\s{0,4}[~<>]?=)|\*\s{0,4}\)\s{0,4}\(\s{0,4}[|&!]?\s{0,4}[\w-]{1,40}\s{0,4}[~<>]?=|\*\s{0,4}\)\s{0,4}(?:\(\s{0,4}){1,3}[|&!]|\)\s{0,4}\(\s{0,4}[|&]\s{0,4}\)|\)\s{0,4}\(\s{0,4}&\s{0,4}\)\s{0,4}$]=]
-- A filter written into a value: "(|(uid=*)", "(&(objectClass=*)", "(objectClass=*)" and
-- wildcard comparisons closed or opened ("*)", "admin*)(").
local FILTER = [=[\(\s{0,4}[|&!]\s{0,4}\(\s{0,4}]=] .. ATTRS .. [=[\s{0,4}[~<>]?=|\(\s{0,4}objectclass\s{0,4}=\s{0,4}\*\s{0,4}\)|^\s{0,4}\*\s{0,4}\){1,4}\s{0,4}(?:\(|$)|^[\w.@-]{1,64}\s{0,4}\)\s{0,4}\(\s{0,4}[|&!]]=]

-- An extensible match (RFC 4515 §3: "attr:dn:=value", "userPassword:2.5.13.18:=x",
-- "uid:caseExactMatch:=x"): a filter item no other syntax writes.
local EXTENSIBLE = [=[\b[a-z][\w-]{0,40}(?::dn)?:(?:\d{1,4}(?:\.\d{1,9}){1,20}|[a-z][\w-]{2,40}match):=|\b[a-z][\w-]{0,40}:dn(?::\d{1,4}(?:\.\d{1,9}){1,20})?:=]=]

-- (the first match only)
local LDAP = waf_re.checks({
  { id = R.extensible, re = EXTENSIBLE, need = ":=" },
  { id = R.filter_break, re = FILTER_BREAK, need = { ")", "(" } },
  { id = R.filter, score = 5, re = FILTER, need = { { "(", ")" } } },
})

function _M.ldap(l, hit) run(LDAP, l, hit, true) end

-- Every pattern with its rule id and group (test/waf-patterns.test.ts checks them like the rules').
-- (php_name's superglobals are words, not a pattern)
_M.PATTERNS = waf_re.patterns("ldap", LDAP, waf_re.patterns("nosql", NOSQL))

return _M
