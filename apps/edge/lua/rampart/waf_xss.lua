-- Cross-site scripting for the WAF (rampart.waf, group xss, ids 101000..101999): a small HTML
-- tokenizer over the decoded value rather than a list of patterns. It reads what a browser would
-- read: "<" and a tag name, then attributes separated by spaces or "/" (quoted or not), and
-- judges the parts that run script: script-capable tags (script, iframe, object, embed, base ...),
-- event-handler attributes (on...), script URLs in any attribute (javascript:, vbscript:,
-- data:text/html) with the spaces, tabs and newlines a browser ignores there removed, CSS
-- expression()/-moz-binding. Without a tag it reads the two other ways a value reaches script: an
-- attribute value broken by a quote and followed by an event handler, and a JavaScript context
-- (a quote or ";" then a call of alert/confirm/prompt/eval..., or DOM sinks such as
-- document.cookie, .innerHTML, document.write). Prose with "<" or ">" ("h2<h1", "a < b") or the
-- word "javascript" does not make these shapes.
--
-- check(s, hit): s is the decoded value; hit(rule_id, score, offset) as in rampart.waf_sqli.
local _M = {}

local byte, sub, lower, find, gsub = string.byte, string.sub, string.lower, string.find, string.gsub
-- through rampart.waf_re: a failing pattern leaves the request not fully inspected
local waf_re = require "rampart.waf_re"
local re_find, re_match = waf_re.find, waf_re.match

local R = {
  tag = 101001, event = 101002, js_url = 101003, css = 101004, attr_break = 101005, js_call = 101006,
  dom_sink = 101007, utf7 = 101008, jsfuck = 101009, weak_tag = 101010,
}
_M.RULES = R

-- (words as a set: rampart.waf_sqli_lex's)
local set = require("rampart.waf_sqli_lex").set

local STRONG_TAGS = set([[script iframe frame frameset object embed applet base import vmlframe xss
  isindex animate set handler listener]])
local MEDIUM_TAGS = set([[meta link style svg math form template portal xml]])
-- Attributes whose value is a URL a browser may navigate or load.
local EVENTS_PREFIX = "on"
local SCRIPT_SCHEMES = { "javascript:", "vbscript:", "livescript:", "data:text/html", "data:image/svg",
  "data:application/", "data:text/xml", "data:text/javascript", "data:,", "mocha:" }

local function letter(c) return c and ((c >= 97 and c <= 122) or (c >= 65 and c <= 90)) end

-- The value with what a browser skips inside a URL scheme removed (control bytes, spaces), lower-cased.
local function compact(s)
  return lower(gsub(s, "[%z\1-\32]", ""))
end

-- "javascript:void(0)" and "javascript:;" are the harmless links of countless pages.
local function inert(rest)
  return rest == "" or rest == ";" or rest:find("^void%(0%);?$") ~= nil
end
_M.inert = inert

local function script_url(v)
  local c = compact(v)
  if sub(c, 1, 11) == "javascript:" and inert(sub(c, 12)) then return false end
  for _, scheme in ipairs(SCRIPT_SCHEMES) do
    if sub(c, 1, #scheme) == scheme then return true end
  end
  return false
end

-- A script-capable tag's own score, once per tag (`scored`: it was given); true. (A function of
-- the module, not a closure made per tag: a closure's creation stops LuaJIT's trace compiler.)
local function score_tag(scored, strong, medium, hit, i)
  if scored then return true end
  if strong then hit(R.tag, 8, i) elseif medium then hit(R.weak_tag, 3, i) end
  return true
end

-- One tag at offset i ("<" there): calls hit for what it holds; returns the offset after it.
local function tag_at(s, i, len, hit)
  local j = i + 1
  if byte(s, j) == 47 then return j + 1 end -- a closing tag says nothing on its own
  if not letter(byte(s, j)) then return j end
  local k = j
  while k <= len do
    local c = byte(s, k)
    if letter(c) or (c >= 48 and c <= 57) or c == 58 or c == 45 or c == 95 then k = k + 1 else break end
  end
  local name = lower(sub(s, j, k - 1))
  local colon = find(name, ":", 1, true)
  if colon then name = sub(name, colon + 1) end
  local c = byte(s, k)
  -- a tag name ends at a space, "/", ">" or the end of the value; "h2<h1" is a tag, "a<b-c" too,
  -- but it says nothing without attributes or a dangerous name.
  if c ~= nil and c ~= 62 and c ~= 47 and not (c == 32 or c == 9 or c == 10 or c == 13 or c == 12) then return k end
  -- A script-capable tag counts when it is closed (">") or has an attribute with a value;
  -- "binary<script is incorrect" is prose.
  local strong, medium = STRONG_TAGS[name], MEDIUM_TAGS[name]
  local tag_scored = false
  if c == 62 then tag_scored = score_tag(tag_scored, strong, medium, hit, i) end
  -- attributes
  local p = k
  local attrs = 0
  while p <= len and attrs < 64 do
    local b = byte(s, p)
    while b and (b == 32 or b == 9 or b == 10 or b == 13 or b == 12 or b == 47) do
      p = p + 1
      b = byte(s, p)
    end
    if b == 62 then score_tag(tag_scored, strong, medium, hit, i) return p + 1 end
    if b == nil then
      if strong then hit(R.tag, 3, i) end
      return p + 1
    end
    if b == 60 then return p end
    local q = p
    while q <= len do
      local d = byte(s, q)
      if d == 32 or d == 9 or d == 10 or d == 13 or d == 12 or d == 47 or d == 62 or d == 61 then break end
      q = q + 1
    end
    if q == p then q = p + 1 end
    local aname = lower(sub(s, p, q - 1))
    attrs = attrs + 1
    -- optional "=" and value
    local r = q
    while byte(s, r) == 32 or byte(s, r) == 9 or byte(s, r) == 10 or byte(s, r) == 13 do r = r + 1 end
    local value = nil
    if byte(s, r) == 61 then
      r = r + 1
      while byte(s, r) == 32 or byte(s, r) == 9 or byte(s, r) == 10 or byte(s, r) == 13 do r = r + 1 end
      local qc = byte(s, r)
      if qc == 34 or qc == 39 or qc == 96 then
        local e = find(s, string.char(qc), r + 1, true) or len + 1
        value = sub(s, r + 1, e - 1)
        p = e + 1
      else
        local e = r
        while e <= len do
          local d = byte(s, e)
          if d == 32 or d == 9 or d == 10 or d == 13 or d == 12 or d == 62 then break end
          e = e + 1
        end
        value = sub(s, r, e - 1)
        p = e
      end
    else
      p = q
    end
    if value then tag_scored = score_tag(tag_scored, strong, medium, hit, i) end
    if #aname > 2 and sub(aname, 1, 2) == EVENTS_PREFIX and aname:find("^on%a+$") then
      hit(R.event, value and 8 or 5, p)
    elseif value then
      if script_url(value) then
        hit(R.js_url, 8, p)
      elseif aname == "style" then
        local v = compact(value)
        if find(v, "expression(", 1, true) or find(v, "-moz-binding", 1, true) or find(v, "javascript:", 1, true)
          or find(v, "behavior:", 1, true) then
          hit(R.css, 8, p)
        end
      elseif (aname == "xsi:schemalocation" or aname == "schemalocation" or aname == "xsi:nonamespaceschemalocation")
        and find(value, "://", 1, true) then
        -- markup that makes an XML parser fetch a remote schema
        hit(R.weak_tag, 5, p)
      elseif aname == "http-equiv" and name == "meta" then
        local v = lower(value)
        if v == "refresh" or v == "set-cookie" then hit(R.tag, 8, p) end
      end
    end
  end
  return p
end

-- Real DOM event names a quote-broken attribute may add (attribute injection without a tag).
local EVENTS = set([[onabort onactivate onafterprint onafterscriptexecute onanimationcancel onanimationend
  onanimationiteration onanimationstart onauxclick onbeforeactivate onbeforecopy onbeforecut onbeforedeactivate
  onbeforepaste onbeforeprint onbeforescriptexecute onbeforeunload onbegin onblur onbounce oncanplay
  oncanplaythrough onchange onclick onclose oncontextmenu oncopy oncuechange oncut ondblclick ondeactivate
  ondrag ondragend ondragenter ondragleave ondragover ondragstart ondrop ondurationchange onend onended
  onerror onfinish onfocus onfocusin onfocusout onformdata onfullscreenchange onhashchange oninput
  oninvalid onkeydown onkeypress onkeyup onload onloadeddata onloadedmetadata onloadend onloadstart
  onmessage onmousedown onmouseenter onmouseleave onmousemove onmouseout onmouseover onmouseup
  onmousewheel onmozfullscreenchange onpagehide onpageshow onpaste onpause onplay onplaying
  onpointerdown onpointerenter onpointerleave onpointermove onpointerout onpointerover onpointerrawupdate
  onpointerup onpopstate onprogress onratechange onrepeat onreset onresize onscroll onscrollend onsearch
  onseeked onseeking onselect onselectionchange onselectstart onshow onstart onstorage onsubmit onsuspend
  ontimeupdate ontoggle ontouchend ontouchmove ontouchstart ontransitioncancel ontransitionend
  ontransitionrun ontransitionstart onunhandledrejection onunload onvolumechange onwaiting onwheel
  onbeforeinput onbeforetoggle oncontentvisibilityautostatechange onfocusout onreadystatechange]])

local ATTR_RE = [=[(?:^|["'`\s/;])(on[a-z]{4,32})\s*=]=]
-- Calls that run code or show that a script ran, and DOM sinks; anchored on an identifier boundary.
local CALL_RE = [=[(?:^|[^\w$.])(?:alert|confirm|prompt|eval|settimeout|setinterval|execscript|msgbox|fromcharcode|atob|reflect\.apply|navigation\.navigate)\s*\)?\s*(?:\.\s*(?:call|apply|bind)\s*)?(?:\?\.\s*)?(?:`|\(\s*(?:[\d'"`)/\[{!+-]|[\w$.]+\s*[).,(\[?]|%))|(?:top|window|self|parent|globalthis|this)\s*\[\s*['"`][a-z]{1,10}['"`]\s*\+]=]
local SINK_RE = [=[(?:document\s*(?:\?\.|\.|\[\s*['"`])\s*(?:cookie|domain|write|writeln|location|body\s*\.\s*innerhtml)|\.\s*(?:innerhtml|outerhtml|insertadjacenthtml|textcontent\s*=|parentnode|srcdoc)|(?:window|top|self|parent)\s*\.\s*location|location\s*\.\s*(?:href|hash|replace|assign)|-moz-binding|\bexpression\s*\()]=]
local WINDOW_RE = [=[\b(?:window|self|top|parent|frames|globalthis|content)\s*\.\s*(?:alert|confirm|prompt|eval|document|location|settimeout|setinterval|open)\b]=]
local JSBREAK_RE = [=[(?:^|['"`;)}\]]\s*|-->|</script>)\s*(?:[;,+\-*|&]+|\)|\}|\]|\s)*\s*(?:alert|confirm|prompt|eval|settimeout|setinterval|fetch|import|new\s+function|document\.|window\.|location\s*=)]=]
-- "+" may arrive as a space (an unencoded form value).
local JSFUCK_RE = [=[\[\]\s*\[\s*\(\s*!\s*\[\s*\]|\(\s*!\s*\[\s*\]\s*[+\s]\s*\[\s*\]\s*\)|!\s*!\s*\[\s*\]|\[\s*[+\s]\s*!\s*[+\s]?\s*\[\s*\]\s*\]]=]
-- "=" counts only in an event handler ("onload="): "a=b&c=d" holds no markup or script.
local HINT_RE = [=[[<>"'`(\[!\xbc\x01-\x1f]|on[a-z]{4,32}\s*=|script|data:|document|window|location|innerhtml|outerhtml|textcontent|parentnode|srcdoc|\+adw-|expression|binding]=]
-- A tagged template whose substitution runs code ("[].sort.call`${alert}1`").
local TEMPLATE_RE = [=[\.\s*(?:call|apply|bind)\s*`[^`]{0,80}\$\{|\$\{\s*(?:alert|confirm|prompt|eval|atob|fetch|import)\s*[}(]]=]
-- A <style> element whose rules load or run something.
local STYLE_RE = [=[<style\b[^>]{0,200}>[^<]{0,400}(?:@import|expression\s*\(|-moz-binding|behavior\s*:|javascript:|url\s*\(\s*['"]?\s*(?:java|vb)script)]=]

-- Literal guards of the regexes below (string.find, plain): one must be present for the regex to
-- be tried.
local function any_of(l, list)
  for i = 1, #list do
    if find(l, list[i], 1, true) then return true end
  end
  return false
end
local SINK_GUARD = { "document", "innerhtml", "outerhtml", "insertadjacenthtml", "textcontent", "parentnode", "srcdoc",
  "location", "-moz-binding", "expression" }
local WINDOW_GUARD = { "window", "globalthis", "frames", "self.", "top.", "parent.", "content.", "self .", "top .",
  "parent .", "content ." }
local CALL_GUARD = { "alert", "confirm", "prompt", "eval", "settimeout", "setinterval", "execscript", "msgbox",
  "fromcharcode", "atob", "reflect", "navigation", "top", "window", "self", "parent", "globalthis", "this" }

-- (`l`: s lower-cased, when the caller has it already)
function _M.check(s, hit, l)
  l = l or lower(s)
  if not re_find(l, HINT_RE, "jo") then return end
  local len = #s
  -- tags
  local i = find(s, "<", 1, true)
  local tags = 0
  while i and tags < 256 do
    tags = tags + 1
    local nxt = tag_at(s, i, len, hit)
    if nxt <= i then nxt = i + 1 end
    i = find(s, "<", nxt, true)
  end
  -- US-ASCII read with the high bit dropped (old IE): "\xbcscript\xbe" is "<script>"
  if find(s, "\188", 1, true) then
    local a = gsub(gsub(gsub(s, "[\194\208]?\188", "<"), "[\194\208]?\190", ">"), "[\194]?\162", '"')
    if a ~= s then
      local k = find(a, "<", 1, true)
      local n = 0
      while k and n < 64 do
        n = n + 1
        local nxt = tag_at(a, k, #a, hit)
        if nxt <= k then nxt = k + 1 end
        k = find(a, "<", nxt, true)
      end
    end
  end
  if find(l, "`", 1, true) or find(l, "${", 1, true) then
    local t = re_find(l, TEMPLATE_RE, "jo")
    if t then hit(R.js_call, 8, t) end
  end
  if find(l, "<style", 1, true) then
    local st = re_find(l, STYLE_RE, "jo")
    if st then hit(R.css, 8, st) end
  end
  -- attribute injection: a quote (or space) then a real event handler and "="
  local ctx = { pos = 1 }
  local has_eq = find(l, "=", 1, true) ~= nil
  for _ = 1, has_eq and find(l, "on", 1, true) and 16 or 0 do
    local m = re_match(l, ATTR_RE, "jo", ctx)
    if not m then break end
    local name = m[1]
    local at = ctx.pos - #m[0] + (find(m[0], name, 1, true) or 1) - 1
    local before = byte(l, at - 1)
    local quoted = before == 34 or before == 39 or before == 96 or before == 47
    if EVENTS[name] then
      hit(R.attr_break, quoted and 8 or 5, at)
      break
    elseif quoted then
      hit(R.attr_break, 5, at)
      break
    end
  end
  -- a quote breaking out of an attribute into one that loads or runs something
  local ab = has_eq and re_find(l, [=[["'`]\s{0,4}/?\s{0,4}(?:formaction|srcdoc|xlink:href|dynsrc|lowsrc|background|autofocus|onfocus)\s{0,4}=]=], "jo")
  if ab then hit(R.attr_break, 5, ab) end
  -- script URLs without a tag: a value that is one ("javascript:alert(1)"), or after "=" or a quote
  local js = find(l, "script", 1, true) or find(l, "data:", 1, true)
  if js then
    local c = compact(l)
    local p = find(c, "javascript:", 1, true) or find(c, "vbscript:", 1, true) or find(c, "livescript:", 1, true)
    -- the scheme spelled with control characters inside ("ja&Tab;vascript:"): browsers skip them,
    -- nobody types them; the disguise is the attack
    if p and find(l, "[%z\1-\31]") then
      local cc = gsub(l, "[%z\1-\31]", "")
      local q = find(cc, "javascript:", 1, true) or find(cc, "vbscript:", 1, true) or find(cc, "livescript:", 1, true)
      if q and not (find(l, "javascript:", 1, true) or find(l, "vbscript:", 1, true) or find(l, "livescript:", 1, true)) then
        hit(R.js_url, 8, q)
      end
    end
    -- CSS that loads a script URL
    local u = find(c, "url(", 1, true)
    if u and re_find(c, [=[url\(['"]?(?:java|vb)script]=], "jo") then hit(R.css, 8, u) end
    if p then
      local before = byte(c, p - 1)
      local rest = sub(c, (find(c, ":", p, true) or p) + 1, p + 200):match("^[^\"'>]*")
      if not inert(rest) and (before == nil or before == 61 or before == 34 or before == 39 or before == 40 or before == 91
        or before == 123 or before == 44 or before == 58) and rest ~= "" then
        hit(R.js_url, find(rest, "[%(`=%[%.;'\"]") and 8 or 3, p)
      end
    end
    local d = find(c, "data:text/html", 1, true) or find(c, "data:image/svg+xml", 1, true)
    if d and (d == 1 or find("=\"'(", sub(c, d - 1, d - 1), 1, true)) then hit(R.js_url, 8, d) end
  end
  -- JavaScript contexts; comments removed and obj["name"] read as obj.name for a second reading
  if find(l, "/*", 1, true) or find(l, "[", 1, true) and find(l, "%[%s*[\"'`]") then
    local js = gsub(gsub(l, "/%*.-%*/", ""), "%[%s*[\"'`]([%w_$]+)[\"'`]%s*%]", ".%1")
    js = gsub(js, "%s*%.%s*", ".")
    js = gsub(js, "%(%s*([%a_$][%w_$]*)%s*%)%.", "%1.")
    if js ~= l then
      if (any_of(js, SINK_GUARD) and re_find(js, SINK_RE, "jo")) or (any_of(js, WINDOW_GUARD) and re_find(js, WINDOW_RE, "jo")) then
        hit(R.dom_sink, 5, 1)
      end
    end
  end
  if any_of(l, WINDOW_GUARD) and re_find(l, WINDOW_RE, "jo") then hit(R.dom_sink, 5, 1) end
  local from_call = (find(l, "(", 1, true) or find(l, "`", 1, true) or find(l, "[", 1, true)) and any_of(l, CALL_GUARD)
    and re_find(l, CALL_RE, "jo")
  if from_call then
    local brk = re_find(l, JSBREAK_RE, "jo")
    hit(R.js_call, brk and 8 or 5, from_call)
  end
  local sink = any_of(l, SINK_GUARD) and re_find(l, SINK_RE, "jo")
  if sink then hit(R.dom_sink, 5, sink) end
  if find(l, "+adw-", 1, true) then hit(R.utf7, 8, find(l, "+adw-", 1, true)) end
  local jf = find(l, "!", 1, true) and re_find(l, JSFUCK_RE, "jo")
  if jf then hit(R.jsfuck, 8, jf) end
end

return _M
