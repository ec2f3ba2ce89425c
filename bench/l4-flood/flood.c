// A bounded packet generator for bench/l4-flood.ts: sends `packets` IPv4 packets (TCP SYN or UDP)
// to dst:port from `sources` consecutive source addresses starting at `src`, through a raw socket
// (so sources can be spoofed, as in a real flood), in batches with sendmmsg. Stops after `packets`
// or `seconds`, whichever comes first, and prints {"sent":N,"seconds":S,"cpuSeconds":C} on stdout. Needs root;
// only ever run inside a network namespace the bench created.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/ip.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH 64
#define PKT 60

static uint16_t csum(const void *data, size_t len, uint32_t sum) {
  const uint8_t *p = data;
  for (; len > 1; len -= 2, p += 2) sum += (uint32_t)(p[0] << 8 | p[1]);
  if (len) sum += (uint32_t)(p[0] << 8);
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return (uint16_t)~sum;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc != 8) {
    fprintf(stderr, "usage: flood syn|udp DST PORT SRC SOURCES PACKETS SECONDS\n");
    return 2;
  }
  int syn = strcmp(argv[1], "syn") == 0;
  struct in_addr dst, src;
  if (!inet_aton(argv[2], &dst) || !inet_aton(argv[4], &src)) return 2;
  uint16_t port = (uint16_t)atoi(argv[3]);
  uint32_t sources = (uint32_t)strtoul(argv[5], 0, 10);
  unsigned long long packets = strtoull(argv[6], 0, 10);
  double seconds = atof(argv[7]);
  if (sources < 1 || sources > 1u << 20 || packets < 1 || seconds <= 0) return 2;

  int fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
  if (fd < 0) {
    perror("socket");
    return 1;
  }
  int sndbuf = 4 << 20;
  setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);

  static uint8_t buf[BATCH][PKT];
  struct iovec iov[BATCH];
  struct mmsghdr msgs[BATCH];
  struct sockaddr_in to = {.sin_family = AF_INET, .sin_addr = dst};
  memset(msgs, 0, sizeof msgs);
  uint32_t base = ntohl(src.s_addr);
  size_t l4len = syn ? 20 : 8 + 12;
  size_t len = 20 + l4len;
  unsigned long long sent = 0, n = 0;
  uint32_t seq = 0x12345678;
  double start = now(), deadline = start + seconds;

  while (sent < packets) {
    int count = 0;
    for (; count < BATCH && sent + count < packets; count++, n++) {
      uint8_t *p = buf[count];
      memset(p, 0, PKT);
      uint32_t s = htonl(base + (uint32_t)(n % sources));
      uint16_t sport = htons((uint16_t)(1024 + (n * 7919) % 60000));
      // IPv4 header
      p[0] = 0x45;
      uint16_t tot = htons((uint16_t)len);
      memcpy(p + 2, &tot, 2);
      uint16_t id = htons((uint16_t)n);
      memcpy(p + 4, &id, 2);
      p[8] = 64;
      p[9] = syn ? 6 : 17;
      memcpy(p + 12, &s, 4);
      memcpy(p + 16, &dst.s_addr, 4);
      uint16_t ipsum = htons(csum(p, 20, 0));
      memcpy(p + 10, &ipsum, 2);
      // Pseudo-header sum
      uint32_t ph = 0;
      ph += (ntohl(s) >> 16) + (ntohl(s) & 0xffff);
      ph += (ntohl(dst.s_addr) >> 16) + (ntohl(dst.s_addr) & 0xffff);
      ph += (uint32_t)p[9] + (uint32_t)l4len;
      uint8_t *l4 = p + 20;
      uint16_t dport = htons(port);
      memcpy(l4, &sport, 2);
      memcpy(l4 + 2, &dport, 2);
      if (syn) {
        uint32_t sq = htonl(seq + (uint32_t)n);
        memcpy(l4 + 4, &sq, 4);
        l4[12] = 5 << 4;
        l4[13] = 0x02;  // SYN
        uint16_t win = htons(64240);
        memcpy(l4 + 14, &win, 2);
        uint16_t sum = htons(csum(l4, l4len, ph));
        memcpy(l4 + 16, &sum, 2);
      } else {
        uint16_t ulen = htons((uint16_t)l4len);
        memcpy(l4 + 4, &ulen, 2);
        memcpy(l4 + 8, "rampartbench", 12);
        uint16_t sum = htons(csum(l4, l4len, ph));
        if (sum == 0) sum = 0xffff;
        memcpy(l4 + 6, &sum, 2);
      }
      iov[count].iov_base = p;
      iov[count].iov_len = len;
      msgs[count].msg_hdr.msg_iov = &iov[count];
      msgs[count].msg_hdr.msg_iovlen = 1;
      msgs[count].msg_hdr.msg_name = &to;
      msgs[count].msg_hdr.msg_namelen = sizeof to;
    }
    int done = sendmmsg(fd, msgs, (unsigned)count, 0);
    if (done < 0) {
      if (errno == ENOBUFS || errno == EAGAIN) continue;
      perror("sendmmsg");
      return 1;
    }
    sent += (unsigned long long)done;
    if ((sent & 0x3fff) < BATCH && now() > deadline) break;
  }
  // Its own CPU: with tick-based accounting the receive side's softirq work that ran on this
  // process's sends (veth delivers in the sender's context) is charged here as system time.
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  double cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
  printf("{\"sent\":%llu,\"seconds\":%.3f,\"cpuSeconds\":%.6f}\n", sent, now() - start, cpu);
  return 0;
}
