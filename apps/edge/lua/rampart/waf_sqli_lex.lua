-- The SQL tokenizer of rampart.waf_sqli: a value as a database would split it into tokens.
-- Comments read as the database reads them: a comment between two tokens is a space
-- ("1/**/UNION/**/SELECT", "1'--\nOR 1=1", "#" to the end of the line), so the grammar of
-- rampart.waf_sqli sees the tokens around it side by side; a comment that ends the value (the rest
-- of the application's query commented out) stays a token, which the grammar reads as a break.
-- MySQL's versioned comments ("/*!50000UNION*/", "/*!SELECT*/") run their content: it is tokenized
-- like the text around it, with a "c" token marked bang before it.
local _M = {}

local byte, sub, lower, find = string.byte, string.sub, string.lower, string.find

local MAX_TOKENS = 256
_M.MAX_TOKENS = MAX_TOKENS

local function set(list)
  local t = {}
  for w in list:gmatch("%S+") do t[w] = true end
  return t
end
_M.set = set

-- Words that are SQL keywords (a bareword otherwise).
local KEYWORDS = set([[select union all distinct from where and or xor not like rlike regexp is null
  insert into values update set delete drop table database schema declare exec execute waitfor delay
  shutdown create alter truncate order by group having limit offset procedure case when then else end
  join inner outer left right on as between in exists sounds outfile dumpfile load_file true false
  begin commit rollback grant revoke use show describe desc asc top char nchar varchar cast convert
  print div mod collate escape returning with]])
local LOGIC = set("and or xor not && ||")

-- Character classes: 1 letter/underscore/$, 2 digit, 3 space, 0 other.
local CLASS = {}
for c = 0, 255 do
  local ch = string.char(c)
  if ch:find("[%a_$]") or c >= 128 then CLASS[c] = 1
  elseif ch:find("%d") then CLASS[c] = 2
  elseif ch:find("[%s\11]") then CLASS[c] = 3
  else CLASS[c] = 0 end
end

-- Tokens: { t = type, v = value, p = offset } with types
--   s string (open = unterminated), n number, k keyword, w bareword, f bareword/keyword called "(",
--   v @variable, o operator, B logic operator, c comment (bang = /*!), ( ) , ; .
-- (a function of the module, not a closure made per call: a closure's creation stops LuaJIT's
-- trace compiler, and the tokenizer then ran in the interpreter)
local function push(toks, n, t, v, p, extra)
  n = n + 1
  toks[n] = { t = t, v = v, p = p, x = extra }
  return n
end

local function tokenize(s, quote)
  local toks, n = {}, 0
  local len = #s
  local i = 1
  local bang = false
  if quote then
    -- The value continues a string opened by the application.
    local j = 1
    while true do
      local q = find(s, quote, j, true)
      if q == nil then return nil end -- no quote: nothing breaks out
      if byte(s, q + 1) == byte(quote) then
        j = q + 2 -- doubled quote: still inside
      elseif q > 1 and byte(s, q - 1) == 92 then
        j = q + 1 -- backslash-escaped
      else
        n = push(toks, n, "s", sub(s, 1, q - 1), 1)
        i = q + 1
        break
      end
    end
  end
  while i <= len and n < MAX_TOKENS do
    local c = byte(s, i)
    local cls = CLASS[c]
    if cls == 3 then
      i = i + 1
    elseif cls == 1 then
      local j = i + 1
      while j <= len do
        local d = byte(s, j)
        local k = CLASS[d]
        if k == 1 or k == 2 then j = j + 1 else break end
      end
      local word = lower(sub(s, i, j - 1))
      -- called: the next non-space (or comment) byte is "("
      local k = j
      while k <= len and CLASS[byte(s, k)] == 3 do k = k + 1 end
      if byte(s, k) == 47 and byte(s, k + 1) == 42 then
        local e = find(s, "*/", k + 2, true)
        if e then
          k = e + 2
          while k <= len and CLASS[byte(s, k)] == 3 do k = k + 1 end
        end
      end
      if byte(s, k) == 40 then
        n = push(toks, n, "f", word, i)
      elseif LOGIC[word] then
        n = push(toks, n, "B", word, i)
      elseif KEYWORDS[word] then
        n = push(toks, n, "k", word, i)
      else
        n = push(toks, n, "w", word, i)
      end
      i = j
    elseif cls == 2 or (c == 46 and CLASS[byte(s, i + 1) or 0] == 2) then
      local j = i + 1
      if c == 48 and (byte(s, j) == 120 or byte(s, j) == 88 or byte(s, j) == 98) then
        j = j + 1
        while j <= len and (CLASS[byte(s, j)] == 2 or find("abcdefABCDEF", sub(s, j, j), 1, true)) do j = j + 1 end
      else
        while j <= len do
          local d = byte(s, j)
          if CLASS[d] == 2 or d == 46 then
            j = j + 1
          elseif (d == 101 or d == 69) and (CLASS[byte(s, j + 1) or 0] == 2 or byte(s, j + 1) == 45 or byte(s, j + 1) == 43) then
            j = j + 2
          else
            break
          end
        end
      end
      -- "1st", "2nd": a number glued to letters is a word of prose.
      if j <= len and CLASS[byte(s, j)] == 1 then
        local k = j
        while k <= len and (CLASS[byte(s, k)] == 1 or CLASS[byte(s, k)] == 2) do k = k + 1 end
        n = push(toks, n, "w", lower(sub(s, i, k - 1)), i)
        i = k
      else
        n = push(toks, n, "n", sub(s, i, j - 1), i)
        i = j
      end
    elseif c == 39 or c == 34 or c == 96 then
      local j = i + 1
      local closed = false
      while j <= len do
        local d = byte(s, j)
        if d == 92 then
          j = j + 2
        elseif d == c then
          if byte(s, j + 1) == c then j = j + 2 else closed = true break end
        else
          j = j + 1
        end
      end
      if c == 96 then
        n = push(toks, n, "w", lower(sub(s, i + 1, j - 1)), i)
      else
        n = push(toks, n, "s", sub(s, i + 1, j - 1), i, not closed and "open" or nil)
      end
      i = j + 1
    elseif c == 64 and (CLASS[byte(s, i + 1) or 0] == 1 or byte(s, i + 1) == 64) then
      local j = i + 1
      if byte(s, j) == 64 then j = j + 1 end
      while j <= len and (CLASS[byte(s, j)] == 1 or CLASS[byte(s, j)] == 2) do j = j + 1 end
      n = push(toks, n, "v", lower(sub(s, i, j - 1)), i)
      i = j
    elseif c == 47 and byte(s, i + 1) == 42 then
      if byte(s, i + 2) == 33 then
        -- "/*!50000 ... */": MySQL runs what is inside; its "*/" is skipped where it comes
        n = push(toks, n, "c", "/*", i, "bang")
        i = i + 3
        while i <= len and CLASS[byte(s, i)] == 2 do i = i + 1 end
        bang = true
      else
        local e = find(s, "*/", i + 2, true)
        n = push(toks, n, "c", "/*", i)
        i = e and e + 2 or len + 1
      end
    elseif c == 42 and bang and byte(s, i + 1) == 47 then
      bang = false
      i = i + 2
    elseif c == 45 and byte(s, i + 1) == 45 then
      n = push(toks, n, "c", "--", i)
      local e = find(s, "\n", i, true)
      i = e and e + 1 or len + 1
    elseif c == 35 then
      n = push(toks, n, "c", "#", i)
      local e = find(s, "\n", i, true)
      i = e and e + 1 or len + 1
    elseif c == 40 or c == 41 or c == 44 or c == 59 then
      n = push(toks, n, string.char(c), string.char(c), i)
      i = i + 1
    elseif c == 46 then
      n = push(toks, n, ".", ".", i)
      i = i + 1
    else
      -- operators: one or two bytes
      local two = sub(s, i, i + 1)
      if two == "||" or two == "&&" then
        n = push(toks, n, "B", two, i)
        i = i + 2
      elseif two == "<>" or two == "!=" or two == "<=" or two == ">=" or two == "::" or two == ":=" or two == "<<"
        or two == ">>" or two == "=>" then
        n = push(toks, n, "o", two, i)
        i = i + 2
      else
        n = push(toks, n, "o", string.char(c), i)
        i = i + 1
      end
    end
  end
  -- a comment with a token after it is a space: dropped (a versioned one stays, its content read)
  local last = n
  while last > 0 and toks[last].t == "c" do last = last - 1 end
  local m = 0
  for j = 1, n do
    local t = toks[j]
    if t.t ~= "c" or t.x == "bang" or j > last then
      m = m + 1
      toks[m] = t
    end
  end
  for j = m + 1, n do toks[j] = nil end
  return toks, m
end
_M.tokenize = tokenize

return _M
