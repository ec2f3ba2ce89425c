-- The literal guards of rampart.waf_rules (GUARDS: a rule's regex runs only on a value holding one
-- of its strings), answered for all rules at once: the value is scanned once by an Aho-Corasick
-- automaton of every guard string (built when this module loads), which marks the strings it
-- holds; guarded() then only reads the marks. Before, each rule searched the value for each of its
-- strings (221 plain searches over a 4 KB window of text for a full rule list), the largest cost
-- of long text bodies. The marks are kept for the last value scanned (a Lua string is interned:
-- the same content is the same string, so the marks stay right whoever asks).
local ffi = require "ffi"
local rules = require "rampart.waf_rules"

local _M = {}

local byte = string.byte

-- Every guard string, numbered; each guard as the list of its strings' numbers.
local LITS, LIT_ID, GUARD_IDS = {}, {}, {}
for _, guard in pairs(rules.GUARDS) do
  local ids = {}
  for i, lit in ipairs(guard) do
    local id = LIT_ID[lit]
    if not id then
      LITS[#LITS + 1] = lit
      id = #LITS
      LIT_ID[lit] = id
    end
    ids[i] = id
  end
  GUARD_IDS[guard] = ids
end

-- The trie of the strings, then its failure links (breadth first) folded into a full transition
-- table: state * 256 + byte -> next state. OUT[state]: the strings that end there (its own and
-- those of its failure chain).
local trie, OUT = { [0] = {} }, {}
local states = 1
for id, lit in ipairs(LITS) do
  local st = 0
  for i = 1, #lit do
    local b = byte(lit, i)
    local nx = trie[st][b]
    if not nx then
      nx = states
      states = states + 1
      trie[nx] = {}
      trie[st][b] = nx
    end
    st = nx
  end
  OUT[st] = OUT[st] or {}
  OUT[st][#OUT[st] + 1] = id
end
local T = ffi.new("int32_t[?]", states * 256)
local HAS_OUT = ffi.new("uint8_t[?]", states)
local fail, queue, head = {}, {}, 1
for b = 0, 255 do
  local nx = trie[0][b]
  if nx then
    fail[nx] = 0
    queue[#queue + 1] = nx
    T[b] = nx
  end
end
while head <= #queue do
  local st = queue[head]
  head = head + 1
  local f = fail[st]
  if OUT[f] then
    OUT[st] = OUT[st] or {}
    for _, id in ipairs(OUT[f]) do OUT[st][#OUT[st] + 1] = id end
  end
  if OUT[st] then HAS_OUT[st] = 1 end
  for b = 0, 255 do
    local nx = trie[st][b]
    if nx then
      fail[nx] = T[f * 256 + b]
      queue[#queue + 1] = nx
      T[st * 256 + b] = nx
    else
      T[st * 256 + b] = T[f * 256 + b]
    end
  end
end
trie, fail, queue = nil, nil, nil

-- present[id] == mark: string id is in the last value scanned; found[1..n_found]: those ids, each once.
local present = ffi.new("uint32_t[?]", #LITS + 1)
local found = ffi.new("int32_t[?]", #LITS + 1)
local mark, scanned, n_found = 0, nil, 0

local function scan(s)
  mark = mark + 1
  if mark >= 0xFFFFFFFF then
    ffi.fill(present, ffi.sizeof(present))
    mark = 1
  end
  scanned = s
  n_found = 0
  local st = 0
  for i = 1, #s do
    st = T[st * 256 + byte(s, i)]
    if HAS_OUT[st] ~= 0 then
      local o = OUT[st]
      for k = 1, #o do
        local id = o[k]
        if present[id] ~= mark then
          present[id] = mark
          n_found = n_found + 1
          found[n_found] = id
        end
      end
    end
  end
end

-- Does `s` hold one of the guard's strings? (`guard`: a list of rampart.waf_rules GUARDS)
function _M.guarded(guard, s)
  if s ~= scanned then scan(s) end
  local ids = GUARD_IDS[guard]
  for i = 1, #ids do
    if present[ids[i]] == mark then return true end
  end
  return false
end

-- The guards of a list of rules (each a list of rampart.waf_rules GUARDS), for rules_marked():
-- which rules (their indexes in the list) each guard string stands for, and a stamp per rule.
function _M.rule_index(guards)
  local by_string = {}
  for i = 1, #guards do
    local ids = GUARD_IDS[guards[i]]
    for k = 1, #ids do
      local list = by_string[ids[k]]
      if not list then
        list = {}
        by_string[ids[k]] = list
      end
      if list[#list] ~= i then list[#list + 1] = i end
    end
  end
  local stamps = {}
  for i = 1, #guards do stamps[i] = 0 end
  return { by_string = by_string, stamps = stamps }
end

-- Marks the rules of an index (rule_index) whose guard `s` holds: after it, index.stamps[i] equals
-- the stamp answered exactly for those (guarded(guards[i], s) for each i, from one scan and the
-- strings found, instead of a call and a search of the guard per rule). Nil when `s` holds no
-- rule's guard.
local stamp = 0
function _M.rules_marked(index, s)
  if s ~= scanned then scan(s) end
  if n_found == 0 then return nil end
  stamp = stamp + 1
  local by_string, stamps, any = index.by_string, index.stamps, false
  for k = 1, n_found do
    local list = by_string[found[k]]
    if list then
      any = true
      for j = 1, #list do stamps[list[j]] = stamp end
    end
  end
  return any and stamp or nil
end

_M.STATES, _M.STRINGS = states, #LITS

return _M
