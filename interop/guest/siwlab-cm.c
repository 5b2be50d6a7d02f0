/*
 * siwlab-cm: a minimal librdmacm peer for the siw lab, for what rping and rdma_server/rdma_client cannot
 * do: MPA private data in the Request, the accepting Reply and the rejecting Reply, and rdma_reject().
 * Built by interop/build.sh on the host against librdmacm 44 and installed in the guest as
 * /usr/local/bin/siwlab-cm.
 *
 *   siwlab-cm server ADDR PORT [--reject HEX | --accept HEX] [--ird N] [--ord N]
 *       listen; print the Request (private data, IRD/ORD); reject it with HEX as private data, or accept
 *       it (HEX = the Reply's private data, may be empty) and then do what rdma_server does: receive 16
 *       octets, send 16 octets back, wait for the client's disconnect.
 *   siwlab-cm client ADDR PORT [--pd HEX] [--ird N] [--ord N]
 *       connect with HEX as the Request's private data; print what came back (ESTABLISHED with the
 *       Reply's private data, or REJECTED with the reject's private data); once established do what
 *       rdma_client does (send 16 octets, receive 16), then disconnect.
 *
 * Output: one "event ..." line per connection manager event, "private_data <hex>" where the event has
 * some. Exit status: 0 accepted/established (or rejected as asked, server), 3 the peer rejected (client),
 * 1 any other failure; every run ends within 20 s (alarm).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netdb.h>
#include <rdma/rdma_cma.h>
#include <rdma/rdma_verbs.h>

static void die(const char *what)
{
	fprintf(stderr, "siwlab-cm: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int parse_hex(const char *s, unsigned char *out, int max)
{
	int n = 0;
	while (s[0] && s[1]) {
		unsigned int v;
		if (n == max || sscanf(s, "%2x", &v) != 1)
			return -1;
		out[n++] = (unsigned char)v;
		s += 2;
	}
	return s[0] ? -1 : n;
}

static void print_pd(const char *label, const void *pd, int len)
{
	const unsigned char *p = pd;
	printf("%s", label);
	for (int i = 0; p && i < len; i++)
		printf("%02x", p[i]);
	printf(" (%d octets)\n", p ? len : 0);
}

static struct rdma_cm_event *next_event(struct rdma_event_channel *ch)
{
	struct rdma_cm_event *ev;
	if (rdma_get_cm_event(ch, &ev))
		die("rdma_get_cm_event");
	printf("event %s status %d\n", rdma_event_str(ev->event), ev->status);
	fflush(stdout);
	return ev;
}

static char msg_rx[16], msg_tx[16];
static struct ibv_mr *mr_rx, *mr_tx;

/* A queue pair as rdma_server/rdma_client make it (librdmacm creates the CQs), one 16-octet receive posted. */
static void make_qp(struct rdma_cm_id *id)
{
	struct ibv_qp_init_attr attr = {
		.cap = { .max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC, .sq_sig_all = 1,
	};
	if (rdma_create_qp(id, NULL, &attr))
		die("rdma_create_qp");
	mr_rx = rdma_reg_msgs(id, msg_rx, sizeof(msg_rx));
	mr_tx = rdma_reg_msgs(id, msg_tx, sizeof(msg_tx));
	if (!mr_rx || !mr_tx)
		die("rdma_reg_msgs");
	if (rdma_post_recv(id, NULL, msg_rx, sizeof(msg_rx), mr_rx))
		die("rdma_post_recv");
}

static int exchange(struct rdma_cm_id *id, int send_first)
{
	struct ibv_wc wc;
	if (send_first && rdma_post_send(id, NULL, msg_tx, sizeof(msg_tx), mr_tx, 0))
		die("rdma_post_send");
	if (send_first && (rdma_get_send_comp(id, &wc) <= 0 || wc.status))
		return printf("send failed (status %d)\n", wc.status), 1;
	if (rdma_get_recv_comp(id, &wc) <= 0 || wc.status)
		return printf("receive failed (status %d)\n", wc.status), 1;
	printf("received %u octets\n", wc.byte_len);
	if (!send_first && rdma_post_send(id, NULL, msg_tx, sizeof(msg_tx), mr_tx, 0))
		die("rdma_post_send");
	if (!send_first && (rdma_get_send_comp(id, &wc) <= 0 || wc.status))
		return printf("send failed (status %d)\n", wc.status), 1;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned char pd[256];
	int pdlen = 0, reject = 0, ird = 1, ord = 1;
	if (argc < 4 || (strcmp(argv[1], "server") && strcmp(argv[1], "client"))) {
		fprintf(stderr, "usage: siwlab-cm server|client ADDR PORT [--reject HEX|--accept HEX|--pd HEX] "
			"[--ird N] [--ord N]\n");
		return 2;
	}
	int server = !strcmp(argv[1], "server");
	for (int i = 4; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--reject") || !strcmp(argv[i], "--accept") || !strcmp(argv[i], "--pd")) {
			reject = !strcmp(argv[i], "--reject");
			pdlen = parse_hex(argv[i + 1], pd, sizeof(pd));
			if (pdlen < 0) {
				fprintf(stderr, "siwlab-cm: bad hex %s\n", argv[i + 1]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--ird")) {
			ird = atoi(argv[i + 1]);
		} else if (!strcmp(argv[i], "--ord")) {
			ord = atoi(argv[i + 1]);
		} else {
			fprintf(stderr, "siwlab-cm: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	alarm(20);
	setvbuf(stdout, NULL, _IOLBF, 0);

	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM }, *ai;
	if (getaddrinfo(argv[2], argv[3], &hints, &ai))
		die("getaddrinfo");
	struct rdma_event_channel *ch = rdma_create_event_channel();
	struct rdma_cm_id *id;
	if (!ch || rdma_create_id(ch, &id, NULL, RDMA_PS_TCP))
		die("rdma_create_id");
	struct rdma_conn_param param = {
		.private_data = pdlen ? pd : NULL, .private_data_len = (uint8_t)pdlen,
		.responder_resources = (uint8_t)ird, .initiator_depth = (uint8_t)ord,
	};
	struct rdma_cm_event *ev;

	if (server) {
		if (rdma_bind_addr(id, ai->ai_addr) || rdma_listen(id, 1))
			die("rdma_bind_addr/rdma_listen");
		printf("listening on %s:%s\n", argv[2], argv[3]);
		ev = next_event(ch);
		if (ev->event != RDMA_CM_EVENT_CONNECT_REQUEST)
			return 1;
		struct rdma_cm_id *child = ev->id;
		printf("request ird %d ord %d\n", ev->param.conn.responder_resources, ev->param.conn.initiator_depth);
		print_pd("request private_data ", ev->param.conn.private_data, ev->param.conn.private_data_len);
		rdma_ack_cm_event(ev);
		if (reject) {
			if (rdma_reject(child, pdlen ? pd : NULL, (uint8_t)pdlen))
				die("rdma_reject");
			print_pd("rejected with private_data ", pd, pdlen);
			sleep(1); /* let the Reply go out before the process ends */
			return 0;
		}
		make_qp(child);
		if (rdma_accept(child, &param))
			die("rdma_accept");
		ev = next_event(ch);
		int ok = ev->event == RDMA_CM_EVENT_ESTABLISHED;
		rdma_ack_cm_event(ev);
		if (!ok || exchange(child, 0))
			return 1;
		ev = next_event(ch); /* the client disconnects */
		rdma_ack_cm_event(ev);
		rdma_disconnect(child);
		return 0;
	}

	if (rdma_resolve_addr(id, NULL, ai->ai_addr, 2000))
		die("rdma_resolve_addr");
	ev = next_event(ch);
	rdma_ack_cm_event(ev);
	if (rdma_resolve_route(id, 2000))
		die("rdma_resolve_route");
	ev = next_event(ch);
	rdma_ack_cm_event(ev);
	make_qp(id);
	if (rdma_connect(id, &param))
		die("rdma_connect");
	ev = next_event(ch);
	int rc = 1;
	if (ev->event == RDMA_CM_EVENT_ESTABLISHED) {
		print_pd("reply private_data ", ev->param.conn.private_data, ev->param.conn.private_data_len);
		rc = 0;
	} else if (ev->event == RDMA_CM_EVENT_REJECTED) {
		print_pd("reject private_data ", ev->param.conn.private_data, ev->param.conn.private_data_len);
		rc = 3;
	}
	rdma_ack_cm_event(ev);
	if (rc == 0) {
		rc = exchange(id, 1);
		rdma_disconnect(id);
		ev = next_event(ch);
		rdma_ack_cm_event(ev);
	}
	return rc;
}
