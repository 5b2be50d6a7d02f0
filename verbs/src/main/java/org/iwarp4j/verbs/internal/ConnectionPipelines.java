package org.iwarp4j.verbs.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.pcap.PcapWriteHandler;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.netty.MpaStartupHandler;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A connection's pipeline: {@code [PcapWriteHandler → PcapPacketCoalescer] → MpaStartupHandler → QueuePairHandler}
 * (MPA's startup handler replaces itself with the FPDU codec at Full Operation).
 */
final class ConnectionPipelines {

    private static final String PIPELINE_PCAP = "pcap";
    private static final String PIPELINE_PCAP_PACKETS = "pcap-packets";
    private static final String PIPELINE_PCAP_HOLDER = "pcap-file";
    private static final String PIPELINE_MPA = "mpa-startup";
    private static final String PIPELINE_QP = "iwarp-qp";

    private ConnectionPipelines() {
    }

    /**
     * Whether the pipeline captures packets: the capture makes a packet of each FPDU, so the FPDU encoder must
     * not gather small ones into one buffer.
     */
    static boolean capturesPackets(ChannelPipeline p) {
        return p.get(PIPELINE_PCAP_PACKETS) != null;
    }

    /**
     * A connection a listener accepted and admitted; {@code sharedPcap}: the listener's capture file, or
     * {@code null}.
     */
    static void responder(Channel ch, MpaConfig mpa, SharedPcapFile sharedPcap, ListenerImpl listener,
                          Admission admission) {
        ChannelPipeline p = ch.pipeline();
        // The connection keeps the listener's pcap file open until its capture handler is gone.
        ChannelHandler pcapHolder = sharedPcap == null ? null : sharedPcap.connectionHolder();
        if (pcapHolder != null) {
            p.addLast(PIPELINE_PCAP_HOLDER, pcapHolder);
            p.addLast(PIPELINE_PCAP, PcapWriteHandler.builder().sharedOutputStream(true)
                    .writePcapGlobalHeader(false).build(sharedPcap.stream()));
            p.addLast(PIPELINE_PCAP_PACKETS, new PcapPacketCoalescer());
        }
        p.addLast(PIPELINE_MPA, MpaStartupHandler.responder(mpa));
        p.addLast(PIPELINE_QP, new QueuePairHandler(listener, admission, ch.eventLoop()));
    }

    /**
     * A connection of {@code handler}'s queue pair; {@code pcapFile}: its capture file (shared with whatever else in
     * this JVM captures to it, {@link SharedPcapFile}), or {@code null}.
     */
    static void initiator(Channel ch, MpaConfig mpa, Path pcapFile, QueuePairHandler handler) throws IOException {
        ChannelPipeline p = ch.pipeline();
        if (pcapFile != null) {
            SharedPcapFile file = SharedPcapFile.open(pcapFile);
            p.addLast(PIPELINE_PCAP_HOLDER, file.releasedOnRemoval());
            p.addLast(PIPELINE_PCAP, PcapWriteHandler.builder().sharedOutputStream(true)
                    .writePcapGlobalHeader(false).build(file.stream()));
            p.addLast(PIPELINE_PCAP_PACKETS, new PcapPacketCoalescer());
        }
        p.addLast(PIPELINE_MPA, MpaStartupHandler.initiator(mpa));
        p.addLast(PIPELINE_QP, handler);
    }
}
