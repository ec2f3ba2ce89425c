-- The WAF's pattern rules (rampart.waf): every group but SQL injection and XSS (which have their
-- tokenizers, rampart.waf_sqli and rampart.waf_xss). Each rule is an anchored PCRE pattern run
-- with "jo" (compiled once per worker, JIT) over the decoded, lower-cased value, with a score
-- (3 weak, 5 medium, 8 strong) and an id in its group's range (WAF_GROUP_RULE_BASE). Patterns are
-- written so they cannot backtrack catastrophically: no nested quantifiers, every repetition of
-- a class bounded or followed by a literal that cannot overlap it (test/waf-patterns.test.ts runs
-- each against pathological input under a time limit), and lua_regex_match_limit bounds them all.
--
-- Where a rule applies: `parts` (default: every value: query, body, cookie, header, path, file
-- contents) or a special input: "path" (the request path only), "ua" (the User-Agent),
-- "filename" (an upload's file name), "file" (an upload's contents), "name" (argument names).
local _M = {}

local find = string.find
local code = require "rampart.waf_rules_code"
local waf_re = require "rampart.waf_re"

-- The names in a User-Agent that say a scanner or an attack tool sent it (rule 112001).
local SCANNER_UA_NAMES = [=[sqlmap|nikto|nmap|masscan|zgrab|nuclei|acunetix|netsparker|invicti|wpscan|dirbuster|gobuster|dirb|wfuzz|ffuf|burp\s?(?:suite|collaborator)|owasp[\s_-]?zap|zaproxy|w3af|arachni|skipfish|openvas(?:vt)?|fuzz\sfaster\su\sfool|nessus|qualys|havij|jaeles|commix|whatweb|fimap|xsser|hydra|medusa|appscan|webinspect|paros|grabber|httprint|morfeus|zmeu|jorgee|sqlninja|pangolin|bsqlbf|dotdotpwn|nsauditor|brutus|grendel-scan|webshag|wapiti|vega|webvulnscan|netlab360|l9explore|l9tcpid|zgrab|censysinspect|masscan-ng|xray|goby|afrog|tsunami|fuxi|dirsearch|feroxbuster|joomscan|droopescan|cmsmap|blackwidow|sitelockspider|teh\s?forest|mysqloit|crimscanner|bfac|metis|security\s?scan|scan\s?bot|pmafind|cgichk|webtrends\s?security|floodgate|n-stealth|ecairn-grabber|muieblackcat|internet\s?ninja|nasl|absinthe|sf\d?|mozilla/4\.0\s\(compatible;\s?msie\s?6\.0;\s?win32\)|fhscan|gootkit|jbrofuzz|toata|datacha0s|zeus|prowebwalker]=]
_M.SCANNER_UA_NAMES = SCANNER_UA_NAMES

-- group → rules; ids are checked against the group ranges by test/waf-rules.test.ts.
_M.RULES = {
  -- Complements of the SQL tokenizer (rampart.waf_sqli): shapes it has no grammar for.
  sqli = {
    -- PostgreSQL casts and JSON operators right after a literal or a call.
    { id = 100101, score = 8, re = [=[['")]\s*::\s*(?:jsonb?|int|integer|int[248]|text|varchar|bigint|numeric|regclass|oid|bytea|double\s+precision|real|boolean|bool|char|name|xml)\b|'\s*(?:<@|@>|\?\||\?&|\?|#>>?|->>?)\s*(?:'|array\s*\[)|'\s*[<>]=?\s*'\$[.\[]]=] },
    { id = 100108, score = 8, re = [=[\bgroup\s+by\s+[\w.`"]{1,40}\s+having\b|\)\s*like\s*\(|\bhaving\s+count\s*\(]=] },
    { id = 100102, score = 3, re = [=[\bif\s*\(\s*[\w'"@().]{1,60}\s*(?:[<>]|=(?!=))]=] },
    { id = 100103, score = 8, re = [=[\bexec(?:ute)?\s{1,8}(?:master\.\.?(?:\w|\s*$)|xp_\w|sp_\w)|\bexecute\s+immediate\b|\bdeclare\s+@\w{1,40}\s+(?:n?varchar|int|table|sysname)]=] },
    -- Functions no prose calls: SQL's own, by name, followed by "(".
    { id = 100104, score = 5, re = [=[\b(?:find_in_set|coalesce|nullif|ifnull|unistr|jsonb?_[a-z_]{2,30}|sqlite_[a-z_]{2,30}|pg_[a-z_]{2,30}|utl_[a-z_]{2,30}|dbms_[a-z_]{2,30}|sys_context|current_setting|string_agg|array_agg|array_to_string|regexp_(?:replace|substr|like|instr|matches)|substring_index|char_length|octet_length|bit_length|quotename|str_to_date|date_format|from_unixtime|unix_timestamp|inet_aton|inet_ntoa|aes_(?:en|de)crypt|des_(?:en|de)crypt|uncompress|export_set|make_set|master_pos_wait|get_lock|release_lock|is_(?:free|used)_lock|procedure_analyse|extractvalue|updatexml|geometrycollection|multipoint|multilinestring|multipolygon|linestring|name_const|uuid_short|connection_id|last_insert_id|row_count|found_rows|benchmark|pg_sleep|load_file|group_concat|concat_ws|xmlelement|xmlagg|xmlquery|xmltype|current_user|session_user|system_user|schema_name|starts_with|json_build_object|to_tsvector|ts_debug|query_to_xml|database_to_xml|lo_import|lo_get|randomblob|zeroblob|unhex|procedure\s+analyse)(?:\s|/\*[^*]{0,40}\*/){0,4}\(]=] },
    -- A value that starts with a call of a SQL function (nothing else a form field starts with).
    { id = 100107, score = 5, re = [=[^\s{0,4}(?:concat|concat_ws|compress|uncompress|cos|sin|tan|cot|decode|encode|insert|trim|ltrim|rtrim|md5|sha1|sha2|crc32|substring|substr|mid|length|lower|upper|ucase|lcase|replace|repeat|reverse|char|chr|ascii|ord|hex|unhex|bin|oct|conv|cast|convert|count|sum|avg|abs|floor|ceil|ceiling|round|rand|sqrt|pow|power|exp|ln|log|log10|now|sysdate|curdate|curtime|ifnull|isnull|nullif|coalesce|greatest|least|field|elt|instr|locate|position|lpad|rpad|space|strcmp|soundex|benchmark|sleep|version|database|schema|uuid|password|old_password|encrypt|aes_encrypt|aes_decrypt|char_length|current_user|user|system_user|session_user|load_file|group_concat|extractvalue|updatexml|json_extract|json_keys)\s{0,4}\\?\(]=] },
    -- NoSQL (MongoDB) operators as keys inside a value, and server-side JavaScript probes.
    { id = 100105, score = 8, re = [=[(?:^|[{,\s\[])['"]?\$(?:where|ne|gt|gte|lt|lte|regex|nin|in|exists|expr|function|accumulator|or|and|nor|not|elemmatch|eq|jsonschema)['"]?\s*:|\[\s*\$(?:ne|gt|lt|gte|lte|regex|nin|in|exists|where|or|and)\s*\]]=] },
    -- LDAP filter injection: a filter closed and another opened with an operator, or a composition
    -- with a wildcard (")(attr=" alone is also arithmetic, "(x)(y=2)": rampart.waf_inject reads it
    -- with the attributes an injection aims at).
    -- T-SQL variables declared, PostgreSQL casts glued to a column, DDL at a value's start, UNION
    -- SELECT of a function or column (the tokenizer wants a select list with more).
    { id = 100109, score = 5, re = [=[\bdeclare(?:\s|/\*[^*]{0,40}\*/){1,8}@\w|\b[a-z_]\w{0,30}::(?:int[248]?|integer|text|varchar|bigint|numeric|regclass|oid|bytea|jsonb?|inet|uuid)\b|^\W{0,4}(?:create|alter|drop)\s+(?:table|database|schema|user|function|procedure|trigger|view)\s+[\w`"\[]|\bunion(?:\s+(?:all|distinct))?\s+select\s+[\w@(*'"`]|\bselect\s+(?:char|concat(?:_ws)?|group_concat|load_file|user|version|database|current_user)\s*\(|\bselect\s+pg_sleep\b|\bselect\s+if\s*\(|;\s{0,4}(?:truncate\s{0,4}(?:\[|table\b)|(?:replace|insert)\b[^;]{0,80}\bvalues\s*\()|\b\d{1,10}\.e(?:\(|\.[a-z_]{2,30}\b)|['"`]\s{0,4}!=\s{0,4}['"`]]=] },
    -- MySQL versioned comments holding a keyword (any version number), Oracle optimizer hints, and
    -- the system tables of Access and MySQL named alone.
    { id = 100110, score = 8, re = [=[/\*!\d{0,6}\s{0,4}(?:select|union|from|where|and|or|insert|update|delete|drop|having|order|group|sleep|benchmark)\b|/\*\s?\+[^*]{1,80}\*/]=] },
    { id = 100111, score = 5, re = [=[\b(?:msys(?:access)?objects|msysqueries|msysrelationships|msysaces|mysql\.(?:db|user|host|tables_priv|columns_priv|proc)|pg_shadow|sysobjects|syscolumns|sysdatabases)\b]=] },
    { id = 100106, score = 8, re = [=[\(\s*[&|!]\s*\(\s*[\w.-]{1,40}\s*[~<>]?=|\)\s*[&|!]\s*!?\s*\(\s*[\w.-]{1,40}\s*[~<>]?=|\(\s*[\w.-]{1,40}\s*=\s*\*\s*\)|\)\s*\(\s*[|&!]|\*\s*\)\s*\(\s*[\w.-]{1,40}\s*=]=] },
  },
  -- Complements of the HTML tokenizer (rampart.waf_xss): shapes it has no grammar for.
  xss = {
    -- A script-capable tag behind a namespace prefix ("<x:script") or spelled with separators
    -- ("<s c r i p t", "<f o r m"), and an event handler opened by a quote right after "<".
    { id = 101011, score = 5, re = [=[<\s{0,4}[\w-]{0,20}\s{0,4}:\s{0,4}(?:script|iframe|object|embed|svg|vmlframe)\b|<\W{0,4}(?:s\W{1,3}c\W{1,3}r\W{1,3}i\W{1,3}p\W{1,3}t|f\W{1,3}o\W{1,3}r\W{1,3}m|d\W{1,3}i\W{1,3}a\W{1,3}l\W{1,3}o\W{1,3}g|i\W{1,3}f\W{1,3}r\W{1,3}a\W{1,3}m\W{1,3}e|o\W{1,3}b\W{1,3}j\W{1,3}e\W{1,3}c\W{1,3}t|e\W{1,3}m\W{1,3}b\W{1,3}e\W{1,3}d)\b|<\s{0,4}["'`]\s{0,4}on[a-z]{3,40}\s{0,4}=|^\s{0,8}["'`]?\s{0,8}on[a-z]{3,40}\s{0,8}=\s{0,8}$]=] },
    -- JavaScript reaching a global by a computed, obfuscated name or calling through a tagged
    -- template ("self["\x24"]", "top['al'+'ert']", "Reflect.apply", "x.call``"; not a plain
    -- key: Python's self["key"], a menu's top["menu"]).
    { id = 101013, score = 5, re = [=[\b(?:self|top|parent|globalthis|frames|window)\s{0,4}\[\s{0,4}(?:['"`][^'"`\]]{0,20}[^\w\s'"`\]-][^'"`\]]{0,20}['"`]|['"`]\w{1,20}['"`]\s{0,4}\+)|\breflect\s{0,4}\.\s{0,4}(?:apply|construct|get|set|\w{1,20}\s{0,4}\.\s{0,4}call)\b|[\w\])]\.(?:call|apply|bind)\s{0,4}`]=] },
    -- Tags that point the page's resources elsewhere ("<base href", "<link ... href"), IE's
    -- "<?import implementation", and markup written with the US-ASCII bytes old browsers read
    -- as "<" and ">" ("¼script¾ ... ¼/script¾").
    { id = 101012, score = 5, re = [=[<\s{0,4}(?:base|link)\b[^<>]{0,80}\bhref\b|<\??\s{0,4}import\s{0,4}implementation|(?:\xc2\xbc|\xd0\xbc|\\xbc)[a-z][\w-]{0,20}(?:\xc2\xbe|\xd0\xbe|\\xbe).{0,200}?(?:\xc2\xbc|\xd0\xbc|\\xbc)/]=] },
  },
  rce = {
    -- Shellshock: a function definition at the start of a value (headers, mostly), with or without
    -- its body (no value of an application starts so).
    { id = 102001, score = 8, re = [=[^\s{0,4}\(\s*\)\s*\{]=] },
    -- A command after a shell separator (";", "|", "&&", a backtick, "$(" or a line break).
    { id = 102002, score = 8,
      re = [=[(?:[;&|`\n\r]|\$\(|\|\||&&)\s{0,8}(?:\$\{?\w{1,10}\}?\s{1,4})?['"]?(?:/(?:usr/)?(?:s?bin|local/bin)/)?(?:visudo|cscli|bsdtar|chef-[a-z]{2,12}|rmt(?:-[a-z]{2,8})?|lastlog(?:in)?|htop|regedit|wget|curl|nc|ncat|netcat|bash|zsh|ksh|csh|dash|python[\d.]{0,5}|perl|ruby|php|nslookup|getent|chmod|chown|powershell|pwsh|certutil|bitsadmin|xargs|gawk|crontab|useradd|passwd|sudo|mkfifo|nohup|wmic|mshta|rundll32|regsvr32|cscript|wscript|iwr|irm|iex|invoke-webrequest|invoke-expression|start-process|cmd|socat|openssl|busybox|systemctl|aptitude|apt-get|yum|dnf|kubectl|docker|uname|hostname|ifconfig|ipconfig|tasklist|taskkill|systeminfo|whoami|schtasks|msiexec|bcdboot|bcdedit|diskpart|iwmi|gwmi|invoke-wmimethod|fsutil|icacls|cacls|findstr|forfiles|robocopy|xcopy|unxz|gunzip|bzip2|zcat|xxd|hexdump|nmap|masscan|c89|c99|gcc|lsof|dmesg|lsmod|insmod|modprobe|iptables|traceroute|strace|ltrace|gdb|telnet|tftp|netstat|pkill|base64|sh|ssh|scp|rsync|ansible[\w-]{0,20}|apt|pip3?|npm|node|lua|java|awk|sed|perl5|tclsh|wish|expect|rev|tac|nl|od)(?:\.exe)?(?:$|[\s<>|;&`'"\$\\,{(]|%20|\+)]=] },
    -- Everyday words that are also commands: only after ";", "|", a backtick or "$(", with an
    -- argument shape (an option, a path, a variable, a number) or nothing after.
    { id = 102013, score = 8,
      re = [=[(?:[;|`]|\$\(|\|\||&&)\s{0,8}(?:/(?:usr/)?(?:s?bin|local/bin)/)?(?:cat|ls|id|echo|printf|sleep|ping|rm|find|head|tail|kill|ps|env|dir|type|copy|del|more|set|ver|timeout|alias|export|exec|eval|source|less|strings|file|stat|touch|mv|cp|ln|w|who|last|history|sort|uniq|cut|tr|tee|wc|grep|egrep|fgrep|mount|route|arp|host|dig|whois|make|cc|tar|zip|unzip|gzip|xz|chroot|su|mysql|psql|sqlite3|time|nice|true|false|test|yes|net|sc|reg|vol|format|expand|attrib|cipher|runas|perf|base32|base58|column|fold|flock|cpulimit|iconv|shred|paste|split|trap)(?:\.exe)?(?:\s{1,8}(?:-{1,2}\w|/|\.{1,2}/|\$|\d|['"`]|~|[a-z]:\\|%\w{2,30}%)|\s{0,4}$|\s{0,4}[;|&`)<]|\$\{?ifs)]=] },
    -- A command at the very start of a value, with an argument shape.
    { id = 102014, score = 5,
      re = [=[^\s{0,4}(?:/(?:usr/)?(?:s?bin|local/bin)/)?(?:wget|curl|nc|ncat|netcat|bash|zsh|ksh|csh|dash|python[\d.]{0,5}|perl|ruby|php|nslookup|getent|chmod|chown|powershell|pwsh|certutil|bitsadmin|xargs|gawk|crontab|useradd|passwd|sudo|mkfifo|nohup|wmic|mshta|rundll32|regsvr32|cscript|wscript|iwr|irm|iex|invoke-webrequest|invoke-expression|start-process|cmd|socat|openssl|busybox|systemctl|aptitude|apt-get|yum|dnf|kubectl|docker|uname|hostname|ifconfig|ipconfig|tasklist|taskkill|systeminfo|whoami|schtasks|msiexec|bcdboot|bcdedit|diskpart|iwmi|gwmi|invoke-wmimethod|fsutil|icacls|cacls|findstr|forfiles|robocopy|xcopy|unxz|gunzip|bzip2|zcat|xxd|hexdump|nmap|masscan|c89|c99|gcc|lsof|dmesg|lsmod|insmod|modprobe|iptables|traceroute|strace|ltrace|gdb|telnet|tftp|netstat|pkill|base64|sh|ssh|scp|rsync|ansible[\w-]{0,20}|apt|pip3?|npm|node|lua|java|awk|sed|perl5|tclsh|wish|expect|rev|tac|nl|od)(?:\.exe)?\s{1,8}(?:-{1,2}\w|/|\$|https?:|['"`])]=] },
    -- Command substitution and redirections typical of exploits.
    { id = 102003, score = 8, re = [=[`\s{0,4}/(?:usr/|s?bin/|tmp/|dev/|etc/|var/)[\w./-]{1,40}(?:\s[^`]{0,100})?`]=] },
    -- /dev/tcp behind a variable ("d=/dev;sh>$d/tcp/..."), a command escaped past an alias ("\ls").
    { id = 102025, score = 8, re = [=[>\s{0,4}\$\{?\w{1,20}\}?/(?:tcp|udp)/|^\\(?:ls|id|cat|whoami|uname|wget|curl|nc|bash|sh)(?:\s|$)]=] },
    { id = 102004, score = 8, re = [=[/dev/(?:tcp|udp)/|\$\{?ifs\b|\bbash\s+-[ic]\b|\bsh\s+-c\b|\bnc(?:at)?\s+(?:-[a-z]{1,3}\s+){0,4}-e\b|/bin/(?:ba|z|k|c|da)?sh\b|\bcmd(?:\.exe)?\s+/[ck]\b|\bpowershell(?:\.exe)?\s+-|\bpython[23]?\s+-c\b|\bperl\s+-e\b|\bruby\s+-e\b|\bphp\s+-r\b|\$\{?shell\}?\s+-c\b]=] },
    -- Server-side includes.
    { id = 102005, score = 8, re = [=[<!--\s{0,4}#\s{0,4}(?:exec|include|echo|config|printenv|fsize|flastmod|set|if)\b]=] },
    -- Windows: FOR /F loops and %VAR% expansion used to run commands.
    { id = 102006, score = 8, re = [=[\bfor\s{1,40}(?:/[a-z]\s{1,40}(?:"[^"]{0,80}"\s{1,40}|[a-z]:\\\S{0,80}\s{1,40})?){0,4}%{1,2}[^\s%]{0,20}\s{1,40}in\s{0,40}\([^)]{0,200}\)\s{0,40}do\b|^\s{0,4}if\s{1,40}(?:/i\s{1,40})?(?:not\s{1,40})?(?:(?:exist|defined|errorlevel|cmdextversion)\s{1,40}\S{1,200}\s{1,40}[("\w]|\S{1,60}?\s{0,40}(?:==|\s(?:equ|neq|lss|leq|gtr|geq)\s)\s{0,40}\S{0,60}\s{1,40}[("\w])|\balias\s{1,8}(?:[-+][\w-]{1,8}\+?\s{1,8}){0,4}[\w'".-]{1,40}\s{0,4}=]=] },
    -- Shell globbing and brace expansion that spell a path ("/e??/p?ss*", "{cat,/etc/passwd}"); a
    -- "**" segment is a build tool's recursive glob ("src/**/*.ts"), which no shell expands so. A
    -- brace list counts when it starts with a command or holds a path or an option ("{ls,-la}"),
    -- not a glob's set of names or extensions ("*.{ts,tsx}", "{foo,bar}").
    { id = 102007, score = 8, re = [=[/(?!\*\*/)[\w?*\[\]]{0,10}[?*\[][\w?*\[\]]{0,10}/[\w?*\[\]]{0,10}[?*]|(?<![.*\w])\{\s{0,2}[a-z]{2,12}\s{0,2},\s{0,2}[-/~$][^{}\s]{0,60}\}|(?<![.*])\{\s{0,2}(?:cat|ls|id|nc|ncat|wget|curl|bash|sh|python\d?|perl|ruby|php|echo|uname|whoami|ping|rm|touch|chmod|cp|mv|head|tail|more|less|find|env|printenv|nslookup|dig|base64|xxd|od|tac|nl)\s{0,2},[^{}\s]{1,60}\}|\b(?:cat|ls|nc|wget|curl|id)\$\{?ifs]=] },
    -- Unix commands reading system files.
    { id = 102008, score = 5, re = [=[\b(?:cat|more|less|head|tail|nl|tac|strings|od|xxd|base64|grep|sed|awk|vi|vim|nano)\s{1,8}(?:-\S{1,8}\s{1,8}){0,3}/(?:etc|proc|var|root|home|tmp|dev|usr|bin|sys|opt|boot)/]=] },
    -- A command run through a wrapper ("time", "nohup", "strace" ...).
    { id = 102018, score = 8, re = [=[(?:^|[;|&`\n])\s{0,4}(?:time|strace|ltrace|nohup|nice|timeout(?:\s{1,4}\d{1,6})?|flock(?:\s{1,4}-\w{1,4}\s{1,4}\S{1,40})?|cpulimit(?:\s{1,4}-\w{1,4}(?:\s{1,4}\d{1,6})?){0,3}|sudo|exec|xargs|watch|setsid|stdbuf|unbuffer|busybox)\s{1,8}(?:-\S{1,20}\s{1,8}){0,3}(?:whoami|uname|ifconfig|ipconfig|id|cat|ls|wget|curl|nc|ncat|bash|sh|zsh|python[\d.]{0,5}|perl|ruby|php|nslookup|ping|getent|netstat|ps|env|echo|sleep|bsdtar|tar)\b]=] },
    -- Commands that only a shell answers, alone at the start of a value.
    { id = 102017, score = 5, re = [=[^\s{0,4}['"]?(?:whoami|uname|ifconfig|ipconfig|netstat|nslookup|getent|certutil|bitsadmin|systeminfo|tasklist|visudo|cscli|bsdtar|mkfifo|busybox|ansible(?:-[a-z]{2,12})?|chef-[a-z]{2,12}|regedit|python\d(?:\.\d{1,2})?)(?:\.exe)?['"]?(?:\s{0,4}(?:$|[;|&`\r\n])|\s{1,4}(?:[\w.-]{1,40}\s{1,4})?-|\s{1,4}[^\r\n]{1,80}[\r\n]\s{0,4}$)]=] },
    -- Shell character classes and arithmetic that spell paths or run code ("/etc/[!q]asswd", "$[2+2]").
    { id = 102019, score = 5, re = [=[/[\w-]{0,12}\[(?:[!^][\w-]{1,8}|\w-\w|\w/+)\][\w-]{0,12}|\$\[\s{0,4}\d{1,8}\s{0,4}[-+*/]|\$\(\(\s{0,4}\d]=] },
    -- Brace expansion and tilde arithmetic that spell commands ("c{a,oun}t", "{,ip,a}", "~+5").
    { id = 102021, score = 5, re = [=[\w\{[\w-]{1,10},[\w-]{1,10}\}\w|\{[\w-]{0,10},[\w-]{1,10}\}\w|\{,[\w-]{1,20}(?:,[\w-]{1,20}){0,5}\}|\{[a-z][\w-]{0,20},\}|^~[+-]\d{0,4}$|>\s{0,4}/(?:tmp|dev|etc|var)/]=] },
    { id = 102020, score = 3, re = [=[\$\{\s{0,4}[a-z_]{2,20}\s{0,4}\}]=] },
    -- Process substitution and command substitution around a bare command word.
    { id = 102015, score = 5, re = [=[(?:^|[\s;|&=])[<>$]\(\s{0,4}[a-z_][\w.-]{0,30}(?:\s{1,4}[^()]{0,80})?\)]=] },
    -- "cd /" after a separator or chained to a command ("cd /;cd etc;...": alone, as prose and
    -- READMEs write it, "cd ~/projects" changes nothing), or a command with a path or option
    -- argument after a separator.
    { id = 102016, score = 5, re = [=[(?:[;|&`]|\$\()\s{0,4}cd\s{1,4}[/~.]|(?:^|\n)\s{0,4}cd\s{1,4}[/~.][^\s;|&`]{0,80}\s{0,4}(?:;|&&|\|\|?|`)|(?:[|`]|&&|\|\|)\s{0,4}[a-z][\w.-]{1,20}\s{1,4}(?:-{1,2}[a-z][\w-]{0,20}\s{1,4}){0,3}(?:/|~/)[\w.]]=] },
    -- Python/Ruby/Perl one-liners and YAML deserialisation gadgets.
    { id = 102009, score = 8, re = [=[!!python/(?:object|name|module)|\bos\.(?:system|popen|exec[lv]p?e?)\s*\(|\bsubprocess\.(?:call|popen|run|check_output)\s*\(|__import__\s*\(|\bkernel\.(?:exec|system|spawn)\b|\bio\.popen\s*\(]=] },
    -- IMAP/SMTP/POP commands after an injected line break (mail header and command injection).
    { id = 102010, score = 8, re = [=[[\r\n]\s{0,4}(?:[a-z]\d{1,4}\s+)?(?:capability|fetch\s+\d|login\s|select\s|examine\s|quit\b|rcpt\s+to|mail\s+from|data\s*$|helo\s|ehlo\s|noop\b|store\s|append\s|uid\s|vrfy\s|expn\s|list\s+""|create\s|delete\s|rename\s|subscribe\s)]=] },
    -- Classic ASP/VBScript execution.
    { id = 102011, score = 8, re = [=[\bev\s?al\s*\(\s*"?\s*ex|\bexecute\s*\(\s*"|\bcreateobject\s*\(\s*["']wscript\.shell|\bserver\.scripttimeout]=] },
    -- Windows/Unix commands run from the path or a value alone at its start.
    { id = 102012, score = 5, re = [=[^\s{0,4}(?:;|\||&&|\|\|)?\s{0,4}(?:wget|curl)\s{1,8}(?:-\S{1,8}\s{1,8}){0,4}(?:https?|ftp)://]=] },
    -- Windows IF comparing quoted, bracketed or braced operands ("if "%1"=="/?" ...", "if/i a==b x").
    { id = 102022, score = 8, re = [=[^\s{0,4}if(?:\s{1,40}|\s{0,40}/i\s{1,40})(?:not\s{1,40})?(?:"[^"\r\n]{0,60}"|\[[^\]\r\n]{0,60}\]|\{[^}\r\n]{0,60}\}|[^\s="]{1,60})\s{0,40}==\s{0,40}(?:"[^"\r\n]{0,60}"|\[[^\]\r\n]{0,60}\]|\{[^}\r\n]{0,60}\}|[^\s="]{1,60})(?:\s|$)]=] },
    -- A command named by its path in a bin folder ("/bin/ab", "bin/visudo") where a value starts or a
    -- shell word does.
    -- Shell expansions no text holds: a substitution inside a substitution ("$(cat$())"),
    -- parameter expansion with pattern removal ("${PATH#x}", "${x%%y}"), empty arithmetic ("$[]"),
    -- a here-string fed to a command (";irb<<<1+2") and history expansion ("!-1!-2").
    { id = 102024, score = 5, re = [=[\$\(\(?[^()]{0,40}\$\(|\$\{[a-z_]\w{0,30}(?:#|%){1,2}[^}]{0,40}\}|\$\[\s{0,4}\]|[;|&`]\s{0,4}[\w.+-]{1,20}\s{0,4}<<<|(?:^|[\s;|&])!-\d{1,3}(?:!-?\d{1,3}|\s|$)]=] },
    { id = 102023, score = 5, re = [=[(?:^|[\s;|&=`'"])/?(?:usr/)?(?:local/)?s?bin/(?:ab|ansible[\w-]{0,20}|chef[\w-]{0,20}|cscli|visudo|bsdtar|busybox|wget|curl|nc|ncat|netcat|bash|zsh|ksh|csh|dash|sh|python[\d.]{0,5}|perl|ruby|php|nmap|socat|telnet|tftp|gcc|cc|chmod|chown|passwd|useradd|crontab|sudo|su|mkfifo|nohup|whoami|uname|id|cat|ls|rm|ping)(?:$|[\s;|&<>'"`])]=] },
  },
  traversal = {
    { id = 103001, score = 8, re = [=[(?:\.\.[/\\;]){2}|(?:[/\\]\.\.){2}]=] },
    { id = 103002, score = 3, re = [=[(?:^|[/\\=])\.\.[/\\]]=] },
    -- Well-known local files, with or without a climb.
    { id = 103003, score = 8,
      re = [=[(?:^|[/\\:=])(?:etc[/\\]+(?:passwd|shadow|group|hosts|issue|motd|crontab|sudoers|master\.passwd|security[/\\]|httpd[/\\]|apache2?[/\\]|nginx[/\\]|mysql[/\\]|ssh[/\\]|pam\.d|fstab|resolv\.conf|hostname|profile|environment|os-release|init\.d)|proc[/\\]+(?:self|\d{1,7})[/\\]|(?:windows|winnt)[/\\]+(?:win\.ini|system\.ini|system32|repair|debug|panther)|boot\.ini|win\.ini|ntuser\.dat|sam$|system32[/\\]+(?:config|drivers|cmd\.exe|inetsrv)|inetpub[/\\]|usr[/\\]+local[/\\]+apps?|var[/\\]+(?:log|www|lib|mail|spool|run)[/\\]|root[/\\]+\.|home[/\\]+[^/\\]{1,32}[/\\]+\.(?:ssh|bash|aws|config|git)|\.ssh[/\\]+(?:id_|authorized_keys|known_hosts))]=] },
    { id = 103007, score = 8, re = [=[(?:^|[/\\=])\.ssh[/\\]|^/sys/(?:class|kernel|devices|block|firmware|module|power|bus|fs)\b|^/proc/(?:self|\d{1,7}|version|cpuinfo|meminfo|mounts|net|sched_debug|kcore)\b|/(?:sys/(?:class|kernel|devices|block|firmware|module|power|bus|fs)|proc/(?:self|\d{1,7}|version|cpuinfo|meminfo|mounts|sched_debug|kcore|interrupts|cmdline|environ))(?:/|$)]=] },
    { id = 103004, score = 8, re = [=[^(?:file|zip|phar|compress\.zlib|glob|jar|netdoc)://]=] },
    -- UNC paths to administrative shares and device files.
    { id = 103005, score = 5, re = [=[^\\\\[\w.:\-\[\]]{1,64}\\(?:[a-z]\$|admin\$|ipc\$|c\$)|^(?:con|prn|aux|nul|com\d|lpt\d)(?:\.\w{1,4})?$]=] },
    { id = 103006, score = 5, re = [=[\.\.(?:%00|\x00|%2500)|(?:\.{3,}[/\\]){2}]=] },
    -- A climb to an application's own secrets (Java's WEB-INF, dotfiles, framework configuration).
    { id = 103008, score = 8, re = [=[\.\.[/\\](?:(?:web-inf|meta-inf)[/\\]|\.env\b|\.git[/\\]|\.htpasswd|\.htaccess|\.aws[/\\]|\.docker[/\\]|wp-config\.php|(?:config|configuration|settings|local_settings|database|parameters)\.(?:php|py|ya?ml|json|inc)|application\.(?:properties|ya?ml)|appsettings\.json|web\.config|id_[rd]sa)]=] },
    -- A climb written with a backslash (Windows, IIS), a climb to a hidden file, and the folders
    -- where tools keep credentials named in a path.
    { id = 103009, score = 5, re = [=[(?:^|[\s=/:])\.\.\\[\w.$%-]|(?:^|[/\\=])\.\.[/\\]\.[\w-][\w.-]{1,40}$]=] },
    { id = 103010, score = 8, re = [=[(?:^|[/\\~])\.(?:docker|aws|kube|gnupg|azure|gcloud)[/\\][\w.-]{1,40}]=] },
  },
  rfi = {
    -- A URL whose query is left open ("?" at the end) so the application's suffix is ignored.
    { id = 104001, score = 8, re = [=[^(?:https?|ftps?)://[^\s?#]{1,512}\?{1,2}$]=] },
    -- A URL to a numeric host given to a parameter.
    { id = 104002, score = 5, re = [=[^(?:https?|ftps?)://(?:[^/@\s]{0,64}@)?(?:\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[[0-9a-f:.]{2,45}\]|[0-9a-f]{1,4}(?::[0-9a-f]{0,4}){2,7})(?::\d{1,5})?(?:[/?#]|$)]=] },
    -- A URL to a script or text file meant for inclusion.
    { id = 104003, score = 3, re = [=[^(?:https?|ftps?)://[^\s?#]{1,256}\.(?:txt|php\d?|phtml|inc|sh|pl|py|jsp|asp|aspx|gif\?)\??$]=] },
    { id = 104004, score = 3, re = [=[^(?:ftp|ftps)://]=] },
  },
  -- php, java, ssti, ssrf, cve and xxe: rampart.waf_rules_code (joined below).
}

for group, list in pairs(code.RULES) do _M.RULES[group] = list end

-- Inputs with rules of their own.
_M.SPECIAL = {
  -- The request path: sensitive files.
  path = {
    { id = 111001, group = "sensitiveFiles", score = 8,
      re = [=[/\.(?:git|svn|hg|bzr|cvs|darcs)(?:/|$)|/\.(?:env|htaccess|htpasswd|htdigest|ds_store|npmrc|pypirc|netrc|pgpass|my\.cnf|bash_history|zsh_history|bashrc|profile|dockercfg|dockerenv|git-credentials|gitconfig|gitignore|travis\.yml|gitlab-ci\.yml|aws|ssh|gnupg|idea|vscode|cursor\w{0,20}|rovodev|claude\w{0,20}|config|kube|terraform\w{0,12}|s3cfg|boto|sqlite_history|mysql_history|psql_history|viminfo|python_history|rediscli_history|lesshst|wget-hsts|composer|docker)(?:[/.\w-]{0,40})?$|/(?:web-inf|meta-inf)(?:/|$)|/(?:id_rsa|id_dsa|id_ecdsa|id_ed25519|authorized_keys|known_hosts)(?:\.pub)?$|/(?:wp-config|config|configuration|settings|database|db|local\.settings|web|app|appsettings|parameters|secrets?|credentials?)\.(?:php|inc|json|ya?ml|xml|ini|config|conf|cfg|py|rb|js|env)\.(?:bak|old|orig|save|swp|swo|tmp|temp|backup|dist|copy|txt|\d)$|/(?:phpinfo|info|test|i)\.php$|/server-(?:status|info)$|/(?:\.?env|\.env\.(?:local|dev|development|prod|production|staging|test|backup|bak|old))$|/(?:docker-compose|compose)\.ya?ml$|/(?:web\.config|php\.ini|\.user\.ini|httpd\.conf|nginx\.conf|wp-config\.php~|sftp-config\.json|filezilla\.xml|credentials\.json|secrets\.ya?ml|database\.yml|master\.key|\.travis\.yml)$]=] },
    { id = 111002, group = "sensitiveFiles", score = 8,
      re = [=[\.(?:bak|old|orig|save|swp|swo|sql|sqlite|sqlite3|db|mdb|dump|backup|bkp|tmp|temp|log|conf|cfg|ini|inc|pem|key|p12|pfx|jks|kdbx|tfstate|tfvars|lock|rdb)$|~$|\.(?:php\d?|phtml|asp|aspx|jsp|inc|conf|config|py|rb|pl|sh|sql|env)~/|\.(?:sql|tar|tgz|zip|rar|7z|gz|bz2|xz)\.(?:gz|bz2|zip|xz|\d)$|/(?:backup|backups|dump|db|database|site|www|htdocs|public_html|wwwroot|web|data|old|new|src|source)\.(?:zip|tar|tgz|tar\.gz|rar|7z|sql|gz|bz2)$]=] },
    -- Any other hidden file or folder (tools keep their settings and secrets in them).
    { id = 111004, group = "sensitiveFiles", score = 5, re = [=[/\.(?!well-known(?:/|$))[\w-][\w.-]{0,40}(?:/|$)]=] },
    { id = 111003, group = "sensitiveFiles", score = 5,
      re = [=[/(?:cgi-bin/(?:php|php5|php-cgi|test-cgi|printenv)|phpmyadmin|pma|adminer(?:[\w.-]{0,10})?\.php|wp-admin/install\.php|xmlrpc\.php|\.well-known/\.\.|actuator/(?:env|heapdump|jolokia|gateway|trace|mappings|configprops|threaddump|logfile)|jmx-console|web-console|invoker/jmxinvokerservlet|manager/html|solr/admin|console/login|axis2?/|jenkins/script|_ignition/execute-solution|telescope/requests|debug/default/view|elmah\.axd|trace\.axd|vendor/phpunit|eval-stdin\.php)]=] },
  },
  -- The User-Agent (and other identifying headers): scanners and attack tools.
  ua = {
    { id = 112001, group = "scanner", score = 8,
      -- (the boundary before the name as a consumed byte of its own, the User-Agent read with a
      -- space before it: PCRE then tries the names only after a space or punctuation, grouped by
      -- their first letter, not at each letter; SCANNER_UA_NAMES between two \b, on the
      -- bare value, finds the same names at the same places)
      re = "[^A-Za-z0-9_](?:" .. waf_re.by_first_letter(SCANNER_UA_NAMES) .. ")\\b" },
  },
  -- An upload's file name: web shells.
  filename = {
    { id = 110001, group = "upload", score = 8,
      re = [=[\.\s{0,4}(?:php\d{0,3}|phpt|phtml|phar|pht|phps|php-s|pgif|shtml|shtm|stm|asp|aspx|ascx|ashx|asmx|asa|axd|cer|cdx|soap|rem|jsp|jspx|jspf|jsw|jsv|jhtml|cfm|cfml|cfc|cgi|pl|pm|py|pyc|rb|sh|bash|exe|dll|bat|cmd|com|vbs|vbe|ps1|psm1|msi|scr|hta|htaccess|htpasswd|war|ear|jar|swf|so|lua|config|user\.ini)(?:[.\s\x00;:]|$)|^\.(?:htaccess|user\.ini|htpasswd)$|(?:^|[/\\])web\.config$|\.(?:php|asp|jsp)\w?\.(?:jpe?g|png|gif|txt|bmp|ico|pdf)$|(?:^|[/\\])sess_[\w,-]{10,}|^\.(?:boto|s3cfg|netrc|npmrc|pgpass|git-credentials|dockercfg|env(?:\.\w{1,12})?)$|^wp-config[\w.-]{0,20}$|(?:^|[/\\])\.\.[/\\]]=] },
  },
  -- An upload's contents: server-side code.
  file = {
    { id = 110002, group = "upload", score = 8,
      re = [=[<\?(?:php|=)|<%@?\s{0,4}(?:page|import|=|@|eval|execute|response|request|runtime|system|out\.)|<script\s+language\s*=\s*["']?(?:php|vbscript|jscript|c#|java)|<jsp:|<cfexecute|<cfscript|#!/(?:usr/)?bin/(?:ba|z|k|c)?sh\b|#!/usr/bin/(?:env\s+)?(?:perl|python\d?|ruby|php)\b]=] },
  },
}

-- Literal guards: a rule is tried only when the (lower-cased) value holds one of its guard's plain
-- strings (string.find, no pattern), which costs a fraction of a PCRE pass over the value. A rule
-- anchored at the start of the value ("^") needs none (PCRE tries one position). A guard lists a
-- literal that every match of the rule contains, so it never hides a match
-- (test/waf-patterns.test.ts checks every rule with a guard against its own examples).
_M.GUARDS = {
  [100101] = { "::", "'" }, [100102] = { "if" }, [100103] = { "exec", "declare" }, [100104] = { "(" },
  [100105] = { "$" }, [100106] = { "(" }, [100108] = { "having", "like" },
  [102002] = { ";", "&", "|", "`", "\n", "\r", "$(" }, [102013] = { ";", "|", "`", "$(", "&&" },
  [102003] = { "`" },
  [102004] = { "/dev/", "ifs", "bash", "sh", "nc", "/bin/", "cmd", "powershell", "python", "perl", "ruby", "php", "shell" },
  [102005] = { "<!--" }, [102006] = { "for", "if", "alias" }, [102007] = { "?", "*", "[", "{", "$" },
  [102008] = { "/" }, [102009] = { "!!python", "os.", "subprocess", "__import__", "kernel.", "io.popen" },
  [102010] = { "\r", "\n" }, [102011] = { "ev", "execute", "createobject", "server.scripttimeout" },
  [102015] = { "(" }, [102016] = { "cd", "|", "`", "&&" }, [102019] = { "[", "$" }, [102020] = { "${" },
  [102021] = { "{", "~", ">" },
  [103001] = { ".." }, [103002] = { ".." },
  [103003] = { "etc", "proc", "windows", "winnt", "boot.ini", "win.ini", "ntuser", "sam", "system32", "inetpub", "usr",
    "var", "root", "home", ".ssh" },
  [103006] = { ".." }, [103007] = { ".ssh", "/sys/", "/proc/" }, [103008] = { ".." },
  [103009] = { ".." }, [103010] = { ".docker", ".aws", ".kube", ".gnupg", ".azure", ".gcloud" },
  [105001] = { "<?", "php]", "{/php}" }, [105002] = { "://" }, [105003] = { "//", "#" }, [105004] = { "$" },
  [105005] = { ":{" }, [105006] = { "$", "\"", "'" }, [105007] = { "=" }, [105008] = { "php", "get_defined", "get_loaded" },
  [105009] = { "include", "require" }, [105010] = { ")" }, [105012] = { "(" }, [105013] = { "[" },
  [106001] = { "jndi", "${" }, [106009] = { "jnd" }, [106002] = { "${" }, [106003] = { "\172\237\0\5", "aced0005", "ro0ab", "h4siaaa" },
  [106004] = { "java", "org.", "com.", "bsh.", "freemarker.", "ognl.", "net.sf", "weblogic.", "clojure." },
  [106005] = { "getruntime", "processbuilder", "getclass", "forname", "classloader", "newinstance", "getmethod", "invoke" },
  [106006] = { "%{", "#", "@java", "@ognl", "java.", "xwork", "allowstatic" },
  [106007] = { "@type", "<java", "<object", "<void", "<sorted-set", "<dynamic-proxy", "<jdk.", "[\"" },
  [106008] = { "processbuilder", "transformer", "templatesimpl", "jdbcrowsetimpl", "lazymap", "transformedmap",
    "annotationinvocationhandler", "badattributevalueexpexception", "beancomparator", "expando", "xstream", "java." },
  [107001] = { "{{" }, [107002] = { "{", "<%", "@(", "[[" },
  [107003] = { "<#", "freemarker", "?new", "{", "#set", "#foreach", "$class" },
  [107004] = { "require", "child_process", "process", "global", "constructor", "function", "execsync", "spawnsync",
    "execfilesync", "_$$nd_func$$_", "import" },
  [107005] = { "__proto__", "constructor" },
  [107006] = { "while", "for", "settimeout", "__js_function", "_bsontype", "function", "db", "this", "sleep" },
  [107007] = { "<%" }, [107008] = { "process.", "kernel.", "io.", "open3", "system", "`" },
  [107009] = { "exports", "function", "process", "global", "require", "console" }, [107010] = { "function" },
  [102022] = { "if" }, [102023] = { "bin/" }, [107014] = { "while" }, [100109] = { "declare", "::", "create", "alter", "drop", "union", "select", ";", ".e", "!=" },
  [102024] = { "$", "<<<", "!-" }, [100110] = { "/*" }, [100111] = { "msys", "mysql.", "pg_shadow", "sys" },
  [101011] = { "<", "on" }, [101013] = { "self", "top", "parent", "globalthis", "frames", "reflect", "`" }, [101012] = { "<", "\\xbc", "\194\188", "\208\188" },
  [118006] = { "{", "#_memberaccess", "@ognl." }, [118007] = { "module" },
  [107011] = { "console" }, [107012] = { "process", "require", "_load", "mainmodule" },
  [107013] = { "constructor", "prototype", "__proto__" },
  [108001] = { "169.254", "100.100.100.200", "192.0.0.192", "fd00:ec2", "metadata", "instance-data" },
  [109001] = { "<!entity" }, [109002] = { "<!doctype", "xi:include", "xinclude" }, [109003] = { "<!entity" },
}

-- (whether a value holds one of a guard's strings: rampart.waf_guard)

-- PHP calls, read at each "(": the identifier before it (spaces and /* */ comments skipped) looked up
-- in a set (105003), or ending with one of the names no prose holds (105011, "FOOgzdecode()").
-- A word lookup instead of a 130-way alternation tried at every position of the value.
local PHP_CALLS, PHP_PREFIXES, PHP_GLUED, PHP_GLUED_PREFIXES = {}, { "posix_", "apache_" }, {}, { "posix_", "readline_", "pcntl_" }
for w in ([[array_filter array_map assert assert_options base64_decode call_user_func call_user_func_array chmod chown convert_uu copy create_function curl_exec curl_init dl error_reporting escapeshellarg escapeshellcmd eval exec extract fgets file file_get_contents file_put_contents fopen fputs fread fsockopen fwrite get_current_user get_defined_vars getcwd getenv glob gzdecode gzinflate gzuncompress highlight_file ignore_user_abort ini_get ini_set link mail mb_ereg_replace mkdir move_uploaded_file ob_start opendir openlog pack parse_str passthru pcntl_exec pfsockopen php_uname phpinfo phpversion popen preg_replace print_r proc_open putenv readdir readfile register_shutdown_function register_tick_function rename rmdir scandir serialize set_time_limit shell_exec show_source socket_create str_rot13 stream_socket_client symlink syslog system tempnam tmpfile uasort unlink unpack unserialize usort var_dump
  file_exists is_array strip_tags strrev intval sprintf vsprintf printf substr str_replace filegroup fileowner fileperms
  is_writable is_readable is_file is_dir is_executable posix_getpwuid array_walk array_reduce iterator_apply
  get_class_methods method_exists function_exists class_exists gettype settype ini_restore lchown lchgrp
  htmlspecialchars_decode html_entity_decode addslashes stripslashes strtolower strtoupper str_split bin2hex hex2bin
  urldecode rawurldecode quoted_printable_decode imap_open mb_send_mail error_log]]):gmatch("%S+") do PHP_CALLS[w] = true end
for w in ([[apache_child_terminate assert_options base64_decode bzdecompress bzopen call_user_func call_user_func_array convert_uudecode create_function curl_exec escapeshellcmd file_get_contents file_put_contents fsockopen get_defined_vars gzdecode gzinflate gzopen gzuncompress highlight_file lzf_decompress mb_ereg_replace move_uploaded_file passthru pcntl_exec php_uname phpinfo preg_replace proc_open register_shutdown_function set_include_path shell_exec show_source str_rot13 stream_socket_client zlib_decode]]):gmatch("%S+") do PHP_GLUED[#PHP_GLUED + 1] = w end

local byte, sub = string.byte, string.sub
local function ident_char(c) return c and (c == 95 or (c >= 48 and c <= 57) or (c >= 97 and c <= 122)) end

-- A callable spelt from quoted fragments ("'sys' . 'tem'", "'ex'.\"ec\""): the joined word looked up
-- like a call's name.
local function php_spelt(l, hit)
  for a, b in l:gmatch("['\"]([%w_]+)['\"]%s*%.%s*['\"]([%w_]+)['\"]") do
    if PHP_CALLS[a .. b] and #a + #b > 3 then hit(105003, 8, 1) return true end
  end
  for a, b, c in l:gmatch("['\"]([%w_]+)['\"]%s*%.%s*['\"]([%w_]+)['\"]%s*%.%s*['\"]([%w_]+)['\"]") do
    if PHP_CALLS[a .. b .. c] then hit(105003, 8, 1) return true end
  end
end

-- Quoted fragments joined by "." ("'sys' . 'tem'")? (the pattern asked from the first quote, once a
-- plain search finds a "." after it: it cannot match before a quote, nor without a dot)
local function quoted_concat(l)
  local q, q2 = find(l, "'", 1, true), find(l, '"', 1, true)
  if not q or q2 and q2 < q then q = q2 end
  return q ~= nil and find(l, ".", q, true) ~= nil and find(l, "['\"]%s*%.%s*['\"]", q) ~= nil
end
_M.quoted_concat = quoted_concat

function _M.php_calls(l, hit)
  if quoted_concat(l) and php_spelt(l, hit) then return end
  local pos, n = 1, 0
  while n < 4096 do
    local p = find(l, "(", pos, true)
    if not p then return end
    n = n + 1
    pos = p + 1
    local e = p - 1
    for _ = 1, 4 do
      while e > 0 and (byte(l, e) == 32 or byte(l, e) == 9 or byte(l, e) == 10 or byte(l, e) == 13) do e = e - 1 end
      if e > 2 and byte(l, e) == 47 and byte(l, e - 1) == 42 then
        local open = nil
        for k = e - 2, math.max(1, e - 84), -1 do
          if byte(l, k) == 42 and byte(l, k - 1) == 47 then open = k - 1 break end
        end
        if not open then break end
        e = open - 1
      else
        break
      end
    end
    local b = e
    while b > 0 and ident_char(byte(l, b)) do b = b - 1 end
    if b < e then
      local word = sub(l, b + 1, e)
      local before = byte(l, b)
      local method = before == 36 or before == 62 or before == 58 or before == 46
      if not method then
        if PHP_CALLS[word] then hit(105003, 8, b + 1) return end
        for i = 1, #PHP_PREFIXES do
          if sub(word, 1, #PHP_PREFIXES[i]) == PHP_PREFIXES[i] and #word > #PHP_PREFIXES[i] + 2 then hit(105003, 8, b + 1) return end
        end
      end
      for i = 1, #PHP_GLUED do
        local g = PHP_GLUED[i]
        if #word >= #g and sub(word, -#g) == g then hit(105011, 8, b + 1) return end
      end
      for i = 1, #PHP_GLUED_PREFIXES do
        if find(word, PHP_GLUED_PREFIXES[i], 1, true) and #word > #PHP_GLUED_PREFIXES[i] + 1 then hit(105011, 8, b + 1) return end
      end
    end
  end
end

return _M
