package org.iwarp4j.tools.demo;

/**
 * One verification of the demo: what was compared, and whether it held.
 *
 * @param what   e.g. {@code server buffer at TO 0x7f..: 300 octets as written}
 * @param passed whether the value matched
 */
record Check(String what, boolean passed) {}
