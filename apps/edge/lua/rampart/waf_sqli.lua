-- SQL injection for the WAF (rampart.waf, group sqli, ids 100000..100999): a SQL tokenizer and a
-- grammar-lite reading of the token stream, in the manner of libinjection. A value is read three
-- ways: as it is (a number or name spliced into a query), and, when it holds a quote, as if it
-- continued a string the application opened with that quote (' or "). Text only becomes an attack
-- when its tokens make SQL that changes a query: a string broken and followed by a boolean
-- operator and a comparison, UNION SELECT, a stacked statement, a SELECT ... FROM subquery,
-- functions only SQL has (SLEEP, BENCHMARK, EXTRACTVALUE ...), system tables, versioned
-- comments. Prose that merely contains "select", "union" or "or" does not tokenize into those
-- shapes. (NoSQL operators and LDAP filter breaks: rampart.waf_inject, groups of their own.)
--
-- check(s, hit) calls hit(rule_id, score, offset) for what it finds; scores 3 weak, 5 medium,
-- 8 strong (rampart.waf turns the module's sensitivity into a threshold). Linear in the value:
-- one pass per reading, at most MAX_TOKENS tokens each (rampart.waf_sqli_lex).
local _M = {}

local byte, sub, lower, find = string.byte, string.sub, string.lower, string.find
-- through rampart.waf_re: a failing pattern leaves the request not fully inspected
local re_find = require("rampart.waf_re").find

local R = {
  union = 100001, versioned = 100002, stacked = 100003, tautology = 100004, comment_break = 100005,
  subquery = 100006, func = 100007, systable = 100008, clause_break = 100009, statement = 100010,
}
_M.RULES = R

-- (words as a set: rampart.waf_sqli_lex's)
local set = require("rampart.waf_sqli_lex").set

-- Words that are SQL keywords (a bareword otherwise).
-- Functions with no use outside SQL (or outside an attack on it); score 8 with any SQL around,
-- 5 alone when called.
local SQL_FUNCS = set([[sleep benchmark pg_sleep extractvalue updatexml load_file xp_cmdshell sp_executesql
  sp_oacreate sp_makewebtask dbms_pipe dbms_lock utl_inaddr utl_http sys_eval sys_exec group_concat concat_ws
  information_schema name_const make_set json_keys randomblob geometrycollection multipoint polygon
  linestring multilinestring multipolygon exp pg_read_file pg_ls_dir lo_import lo_export dblink
  openrowset opendatasource xp_dirtree xp_regread xp_fileexist fn_varbintohexstr has_dbs_access
  is_srvrolemember char_length substring_index mid ord ascii hex unhex bin_to_num ctxsys
  dbms_xmlgen xmltype utl_file sqlite_version load_extension current_database current_user
  session_user system_user database version user schema_name table_name column_name
  pg_client_encoding txid_current gtid_subset st_latfromgeohash st_pointfromgeohash
  row_count found_rows last_insert_id connection_id uuid_short]])
-- Of those, ones whose call alone is enough (no benign use of the name followed by "(").
local STRONG_FUNCS = set([[sleep benchmark pg_sleep extractvalue updatexml load_file xp_cmdshell
  sp_executesql sp_oacreate dbms_pipe dbms_lock utl_inaddr utl_http sys_eval sys_exec group_concat
  name_const pg_read_file pg_ls_dir lo_import dblink openrowset xp_dirtree xp_regread fn_varbintohexstr
  dbms_xmlgen xmltype load_extension gtid_subset st_latfromgeohash st_pointfromgeohash concat_ws]])
local SYS_NAMES = set([[information_schema sysobjects syscolumns sysdatabases pg_catalog pg_shadow pg_user
  pg_database sqlite_master sqlite_temp_master all_tables user_tables dba_users all_users
  msysaccessobjects msysobjects xp_cmdshell xp_regread xp_dirtree sp_oacreate sp_executesql sp_makewebtask
  sp_addextendedproc sp_password tempdb msdb db_name mysql.db mysql.user master..sysdatabases sys.objects sys.tables
  @@version @@datadir @@hostname @@basedir @@servername @@spid]])
-- What may start a stacked or spliced statement, and what must follow to make it one.
local STATEMENT = {
  select = true, insert = "into", update = "set", delete = "from", drop = "object", declare = "var",
  exec = "any", execute = "any", waitfor = "delay", shutdown = true, create = "object", alter = "object",
  truncate = "object", load_file = true,
}
local OBJECTS = set("table database schema view procedure function user index trigger login column")

local lex = require "rampart.waf_sqli_lex"
local tokenize = lex.tokenize
_M.tokenize = tokenize

local OPERAND = { n = true, s = true, w = true, v = true, f = true }
local COMPARE = { ["="] = true, ["<"] = true, [">"] = true, ["<>"] = true, ["!="] = true, ["<="] = true,
  [">="] = true, like = true, rlike = true, regexp = true, is = true, ["<=>"] = true, sounds = true, ["in"] = true }

local function compare_at(t)
  if t == nil then return false end
  return (t.t == "o" and COMPARE[t.v]) or (t.t == "k" and COMPARE[t.v]) or false
end

-- The index after a balanced call's ")" from the "(" at index i, or nil.
local function close_paren(toks, i, n)
  local depth = 0
  for j = i, n do
    local t = toks[j].t
    if t == "(" then depth = depth + 1 elseif t == ")" then
      depth = depth - 1
      if depth == 0 then return j + 1 end
    end
  end
  return nil
end

-- Is there a statement starting at index i (a keyword from STATEMENT with what must follow)?
local function statement_at(toks, i, n)
  local t = toks[i]
  if t == nil then return false end
  local need = STATEMENT[t.v]
  if not need or (t.t ~= "k" and t.t ~= "f" and t.t ~= "w") then return false end
  local nxt = toks[i + 1]
  if need == true then
    if t.v == "select" then
      -- select <something> and, later, from / a function / a variable / a number
      for j = i + 1, math.min(n, i + 12) do
        local u = toks[j]
        if (u.t == "k" and u.v == "from") or u.t == "f" or u.t == "v" or (u.t == "o" and u.v == "*") then return true end
      end
      return nxt ~= nil and (nxt.t == "n" or nxt.t == "s") and (toks[i + 2] == nil or toks[i + 2].t == "c"
        or toks[i + 2].t == "," or toks[i + 2].t == ";")
    end
    return nxt == nil or nxt.t == "c" or nxt.t == ";" or nxt.t == "("
  end
  if nxt == nil then return false end
  if need == "any" then return nxt.t == "w" or nxt.t == "f" or nxt.t == "v" or nxt.t == "s" or nxt.t == "(" end
  if need == "var" then return nxt.t == "v" end
  if need == "object" then return OBJECTS[nxt.v] == true end
  if need == "delay" then return nxt.v == "delay" or nxt.v == "time" end
  if need == "into" then return nxt.v == "into" end
  if need == "from" then return nxt.v == "from" end
  if need == "set" then
    local after = toks[i + 2]
    return nxt.t == "w" and after ~= nil and after.v == "set"
  end
  return false
end

-- Reads one tokenization; `quoted` when the first token is the application's broken string.
-- A finding: reported, and the best score so far returned. (Functions of the module, not
-- closures made per call: a closure's creation stops LuaJIT's trace compiler.)
local function found(best, hit, rule, score, p)
  hit(R[rule], score, p)
  if score > best then return score end
  return best
end
-- Does the tautology end at t (nothing more, a comment, a statement's end, a logic word)?
local function endish(t, quoted)
  return t == nil or t.t == "c" or t.t == ";" or t.t == ")" or (quoted and t.t == "s" and t.x == "open")
    or t.t == "B" or t.t == "k"
end

local function analyse(toks, n, quoted, hit)
  local best = 0
  local sql = 0 -- how much SQL structure is around (for the weaker signals)
  for i = 1, n do
    local t = toks[i]
    local tt, v = t.t, t.v
    if tt == "k" or tt == "B" or tt == "f" and SQL_FUNCS[v] or tt == "v" then sql = sql + 1 end
    if tt == "c" and t.x == "bang" then
      best = found(best, hit, "versioned", 8, t.p)
    elseif tt == "k" and v == "union" then
      local j = i + 1
      while toks[j] and (toks[j].v == "all" or toks[j].v == "distinct" or toks[j].t == "(" or toks[j].t == "c") do j = j + 1 end
      -- and a select list after it: a value, "*", null, a call, a variable, a column and ","/from
      local sel, a, b = toks[j], toks[j + 1], toks[j + 2]
      if sel and sel.v == "select" and a == nil then best = found(best, hit, "union", 5, t.p) end
      if sel and sel.v == "select" and a then
        local ok = a.t == "n" or a.t == "s" or a.t == "v" or a.t == "f" or a.t == "(" or (a.t == "o" and a.v == "*")
          or (a.t == "k" and (a.v == "null" or a.v == "distinct" or a.v == "all" or a.v == "top" or a.v == "char"))
          or ((a.t == "w" or a.t == "k") and b and (b.t == "," or b.v == "from" or b.t == "." or b.t == "c" or b.v == "as"))
        if ok then best = found(best, hit, "union", 8, t.p) end
      end
    elseif tt == ";" then
      if statement_at(toks, i + 1, n) then best = found(best, hit, "stacked", 8, t.p) end
    elseif (tt == "f" or tt == "k" or tt == "w") and v == "select" then
      -- a subquery: "(" select ... from, or select after an operator / a break
      local prev = toks[i - 1]
      if prev and (prev.t == "(" or prev.t == "B" or (quoted and i == 2)) and statement_at(toks, i, n) then
        best = found(best, hit, "subquery", 8, t.p)
      elseif i == 1 and statement_at(toks, i, n) then
        best = found(best, hit, "statement", 3, t.p)
      end
    elseif tt == "f" and SQL_FUNCS[v] then
      local after = close_paren(toks, i + 1, n)
      local args = toks[i + 2]
      local strong = STRONG_FUNCS[v]
      -- "sleep (at least)": a bare word then more prose is no argument list
      local prose = args and args.t == "w" and toks[i + 3] and toks[i + 3].t == "w"
      if strong and args and args.t ~= ")" and not prose then
        best = found(best, hit, "func", (quoted or i > 1) and 8 or 5, t.p)
      elseif strong and not prose then
        best = found(best, hit, "func", 5, t.p)
      -- (not after "{" or "}": a GraphQL selection or a template, "{ user(id: 1) { name } }")
      elseif after and (quoted or (toks[i - 1] and (toks[i - 1].t == "B"
        or toks[i - 1].t == "o" and toks[i - 1].v ~= "{" and toks[i - 1].v ~= "}" or toks[i - 1].t == "("))) then
        best = found(best, hit, "func", 5, t.p)
      end
    elseif (tt == "w" or tt == "v" or tt == "f") and SYS_NAMES[v] then
      best = found(best, hit, "systable", 5, t.p)
    elseif (tt == "w" or tt == "k") and v == "waitfor" and toks[i + 1] and toks[i + 1].v == "delay" then
      best = found(best, hit, "stacked", 8, t.p)
    elseif tt == "k" and v == "as" and toks[i - 1] and (toks[i - 1].t == "w" or toks[i - 1].t == "s" or toks[i - 1].t == "n")
      and toks[i + 1] and (toks[i + 1].t == "w" or toks[i + 1].t == "s") and toks[i + 2] and toks[i + 2].v == "from" then
      best = found(best, hit, "statement", 5, t.p) -- "<expr> AS <alias> FROM": a select list spliced in
    elseif tt == "k" and (v == "outfile" or v == "dumpfile") and toks[i - 1] and toks[i - 1].v == "into"
      and toks[i + 1] and toks[i + 1].t == "s" then
      -- (the file is a string literal in MySQL's grammar: "INTO OUTFILE, but ..." in prose names it)
      best = found(best, hit, "func", 8, t.p)
    end
  end

  -- The break: the first token after the broken string (quoted) or the leading operand.
  local first = quoted and 2 or 1
  local t1 = toks[first]
  if t1 == nil then return best end
  if not quoted then
    -- "1 or 1=1", "x) or (1=1": an operand (optionally closing a parenthesis) then a logic operator.
    if not (t1.t == "n" or t1.t == "w" or t1.t == "s") then return best end
    first = first + 1
    t1 = toks[first]
    if t1 and t1.t == ")" then first = first + 1; t1 = toks[first] end
    if t1 == nil then return best end
  else
    while t1 and t1.t == ")" do first = first + 1; t1 = toks[first] end
    if t1 == nil then return best end
    -- admin' -- | admin'#  : the rest of the query commented out
    if t1.t == "c" and (toks[first + 1] == nil) then best = found(best, hit, "comment_break", 5, t1.p) end
    if t1.t == ";" and (toks[first + 1] == nil or toks[first + 1].t == "c") then best = found(best, hit, "comment_break", 5, t1.p) end
    -- '; <statement keyword> ...: a second statement after the break
    if t1.t == ";" and toks[first + 1] and STATEMENT[toks[first + 1].v] then best = found(best, hit, "stacked", 8, t1.p) end
    if t1.t == "k" and (t1.v == "as" or t1.v == "regexp" or t1.v == "rlike" or t1.v == "from" or t1.v == "where") then
      best = found(best, hit, "clause_break", 5, t1.p)
    end
    if t1.t == "k" and (t1.v == "union" or t1.v == "order" or t1.v == "group" or t1.v == "having"
      or t1.v == "limit" or t1.v == "procedure" or t1.v == "into") then
      local t2 = toks[first + 1]
      if t2 and (t2.v == "by" or t1.v ~= "order" and t1.v ~= "group") then best = found(best, hit, "clause_break", 8, t1.p) end
    end
    -- ' = '  |  '=0--   : a comparison right after the break
    if compare_at(t1) and toks[first + 1] and OPERAND[toks[first + 1].t] then
      local t3 = toks[first + 2]
      if t3 == nil or t3.t == "c" or (t3.t == "s" and t3.x == "open") then best = found(best, hit, "tautology", 5, t1.p) end
    end
    -- '||(select ...)', '+sleep(5)+': an operator joining SQL to the broken string
    if t1.t == "o" or t1.v == "||" then
      local t2 = toks[first + 1]
      if t2 and (t2.t == "(" or t2.t == "f") and sql > 0 then best = found(best, hit, "tautology", 5, t1.p) end
    end
  end
  if t1.t == "B" and t1.v ~= "not" then
    -- <break> or <operand> [<compare> <operand>] [end | comment | the application's closing quote]
    local a = toks[first + 1]
    if a and a.t == "B" and a.v == "not" then first = first + 1; a = toks[first + 1] end
    if a and a.t == "(" then first = first + 1; a = toks[first + 1] end
    if a and (OPERAND[a.t] or a.t == "k" and (a.v == "true" or a.v == "false" or a.v == "null")) then
      local j = first + 2
      if a.t == "f" then j = close_paren(toks, first + 2, n) or n + 1 end
      local op = toks[j]
      if compare_at(op) then
        local b = toks[j + 1]
        if b and (b.t == "(") then b = toks[j + 2]; j = j + 1 end
        if b and (OPERAND[b.t] or b.t == "k") then
          local rest = toks[j + 2]
          if b.t == "f" then rest = toks[(close_paren(toks, j + 2, n) or n + 1)] end
          if endish(rest, quoted) or (rest and (rest.t == "o" or rest.t == "s" or rest.t == "n")) then
            best = found(best, hit, "tautology", quoted and 8 or ((a.t == "n" or a.t == "s") and (b.t == "n" or b.t == "s") and 5 or 3), a.p)
          end
        end
      elseif a.t == "f" and (SQL_FUNCS[a.v] or a.v == "if" or a.v == "case") then
        best = found(best, hit, "tautology", 8, a.p)
      elseif quoted and endish(op, quoted) and (a.t == "n" or a.t == "s" or a.t == "k") then
        best = found(best, hit, "tautology", (op and op.t == "c" or a.t ~= "s") and 8 or 5, a.p)
      elseif not quoted and op and op.t == "c" and (a.t == "n" or a.t == "k") then
        best = found(best, hit, "tautology", 5, a.p)
      end
    end
  end
  return best
end

local QUOTE_RE = [=[['"]]=]
-- A cheap test: bytes or words without which no rule here can fire.
-- Without a quote (no string to break), a call, a statement separator, a comment or a variable,
-- the plain reading needs a logic operator or a keyword: a comparison or "=" alone ("a=b&c=d",
-- "1920*1080") makes no SQL that changes a query.
local SQL_HINT_RE = [=[['"`;#()@]|--|/\*|\|\||&&|(?i:\b(?:or|and|xor|not|union|select|from|as|sleep|benchmark|waitfor|information_schema|insert|drop|delete|update|having|order|group|limit|procedure|into|outfile|dumpfile|declare|exec|execute|shutdown|create|alter|truncate)\b|pg_|xp_|sp_|sys|tempdb|msdb|mysql\.|sqlite_|all_tables|user_tables|dba_users|all_users|db_name)]=]

-- `inner`: s is a window inside a longer value, where no string the application opened can be
-- assumed: only the plain reading applies, and the quote readings only for the quotes in `quotes`
-- (the value's first quote of that kind lies in this window: the string the application opened
-- ends there).
function _M.check(s, hit, inner, quotes)
  if not re_find(s, SQL_HINT_RE, "jo") then return end
  local toks, n = tokenize(s, nil)
  if toks then analyse(toks, n, false, hit) end
  if inner then
    if quotes then
      for q in pairs(quotes) do
        toks, n = tokenize(s, q)
        if toks and n > 1 then analyse(toks, n, true, hit) end
      end
    end
    return
  end
  if find(s, "'", 1, true) then
    toks, n = tokenize(s, "'")
    if toks and n > 1 then analyse(toks, n, true, hit) end
  end
  if find(s, '"', 1, true) then
    toks, n = tokenize(s, '"')
    if toks and n > 1 then analyse(toks, n, true, hit) end
  end
  if find(s, "`", 1, true) then
    toks, n = tokenize(s, "`")
    if toks and n > 1 then analyse(toks, n, true, hit) end
  end
end

return _M
