package org.iwarp4j.tools.rping;

import java.net.InetSocketAddress;
import org.iwarp4j.tools.cli.ConnectionOptions;
import org.iwarp4j.tools.cli.ResponderOptions;
import org.iwarp4j.tools.cli.WireOptions;

/**
 * A validated rping configuration.
 *
 * @param address  server: where to listen; client: the server to connect to
 * @param count    pings to run (0 = forever)
 * @param size     ping data size, {@value RpingData#MIN_SIZE}..{@value RpingData#MAX_SIZE}
 * @param verbose  print the ping data ({@code -v})
 * @param validate the client compares what came back with what it sent ({@code -V})
 * @param debug    rping's debug lines ({@code -d})
 * @param wire       MPA framing settings and capture
 * @param connection MPA connection parameters (revision, peer-to-peer, IRD/ORD, private data, peer, nudge)
 * @param responder  the server's reject options
 * @param inject     the protocol error to provoke ({@code --inject}), or {@code null}
 */
record RpingOptions(InetSocketAddress address, long count, int size, boolean verbose, boolean validate, boolean debug,
                    WireOptions wire, ConnectionOptions connection, ResponderOptions responder,
                    RpingInjection inject) {}
