package org.iwarp4j.rdmap.stream;

import org.iwarp4j.rdmap.terminate.Terminate;

/** Writes the stream's one Terminate (QN 2, MSN 1) and shuts its send side [RDMAP-19]. */
interface TerminateWriter {

    void writeTerminate(Terminate terminate);
}
