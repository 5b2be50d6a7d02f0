package org.iwarp4j.verbs.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;
import io.netty.util.concurrent.EventExecutor;

/**
 * The one promise of every FPDU batch {@link TransmitPump} flushes, so that a flush allocates nothing. Netty
 * completes the writes of a channel in the order they were written, so the n-th success or failure reported to
 * this promise belongs to the n-th batch still pending: each batch's segment count (and the action to run after
 * it, if any) waits in a FIFO until then. The promise itself never becomes done, which is what lets the same
 * object be written again; nothing may listen to it (its listeners would never run), and only the channel's
 * outbound buffer, which reports through {@code trySuccess}/{@code tryFailure}, sees it. On the event loop only.
 */
final class BatchPromise extends DefaultChannelPromise {

    /** What a batch's completion is reported to. */
    interface Sink {
        /** The batch of {@code segments} FPDUs was written ({@code success}) or failed with the channel. */
        void batchDone(int segments, boolean success);
    }

    private final Sink sink;
    private int[] segments = new int[16];
    private Runnable[] after = new Runnable[16];
    private int head;
    private int size;

    BatchPromise(Channel channel, EventExecutor executor, Sink sink) {
        super(channel, executor);
        this.sink = sink;
    }

    /** A batch of {@code n} segments is about to be written with this promise; {@code then} runs after it. */
    ChannelPromise next(int n, Runnable then) {
        if (size == segments.length) {
            grow();
        }
        int i = (head + size) & (segments.length - 1);
        segments[i] = n;
        after[i] = then;
        size++;
        return this;
    }

    /** Batches written with this promise and not yet reported. */
    int pending() {
        return size;
    }

    private void grow() {
        int[] s = new int[segments.length * 2];
        Runnable[] a = new Runnable[s.length];
        for (int k = 0; k < size; k++) {
            int i = (head + k) & (segments.length - 1);
            s[k] = segments[i];
            a[k] = after[i];
        }
        segments = s;
        after = a;
        head = 0;
    }

    private boolean complete(boolean success) {
        if (size == 0) {
            return false; // a report with no batch pending: not ours to count
        }
        int i = head;
        int n = segments[i];
        Runnable then = after[i];
        after[i] = null;
        head = (head + 1) & (segments.length - 1);
        size--;
        sink.batchDone(n, success);
        if (then != null) {
            then.run();
        }
        return true;
    }

    @Override
    public boolean trySuccess() {
        return complete(true);
    }

    @Override
    public boolean trySuccess(Void result) {
        return complete(true);
    }

    @Override
    public ChannelPromise setSuccess() {
        complete(true);
        return this;
    }

    @Override
    public ChannelPromise setSuccess(Void result) {
        complete(true);
        return this;
    }

    @Override
    public boolean tryFailure(Throwable cause) {
        return complete(false);
    }

    @Override
    public ChannelPromise setFailure(Throwable cause) {
        complete(false);
        return this;
    }

    @Override
    public boolean isVoid() {
        return false;
    }
}
