/**
 * Values shared by the MPA layer, RDMAP and the verbs API, so that each has one type and one set of
 * defaults: {@link org.iwarp4j.common.MpaOptions} (the MPA settings of a connection, used by connect,
 * listen and the MPA layer alike) and {@link org.iwarp4j.common.RtrType}.
 */
package org.iwarp4j.common;
