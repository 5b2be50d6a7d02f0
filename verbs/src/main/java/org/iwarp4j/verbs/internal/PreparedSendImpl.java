package org.iwarp4j.verbs.internal;

import org.iwarp4j.verbs.PreparedSend;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.VerbsException;

/**
 * A send built once and posted many times: each execution retains its data for the post, close releases it (its
 * queue pair's close too).
 */
final class PreparedSendImpl implements PreparedSend {

    private final QueuePairImpl qp;
    private final SendWorkRequest request;
    private final SendPost post;
    private volatile boolean closed;

    PreparedSendImpl(QueuePairImpl qp, SendWorkRequest request, SendPost post) {
        this.qp = qp;
        this.request = request;
        this.post = post;
    }

    @Override
    public SendWorkRequest workRequest() {
        return request;
    }

    @Override
    public void execute() {
        if (!tryExecute()) {
            throw qp.queueFull(request);
        }
    }

    @Override
    public boolean tryExecute() {
        qp.checkSendState(request);
        if (closed) {
            throw new VerbsException(VerbsException.Reason.WRONG_STATE, request, "prepared send is closed");
        }
        if (!qp.sendRoomFor(request)) {
            return false; // found before a reference is taken
        }
        post.retainData();
        return qp.tryEnqueue(post); // full after all (another poster was faster): releases the reference just taken
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            post.releaseData();
            qp.preparedClosed(this);
        }
    }
}
