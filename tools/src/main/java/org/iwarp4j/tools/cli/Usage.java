package org.iwarp4j.tools.cli;

import picocli.CommandLine;

/**
 * The usage errors the tools' option checks share. Each throws {@link CommandLine.ParameterException}, which
 * picocli reports with the usage and exit status 2.
 */
public final class Usage {

    private Usage() {}

    /** {@code OPTION must be MIN..MAX: VALUE} unless {@code min <= value <= max}. */
    public static void range(CommandLine cl, String option, long value, long min, long max) {
        range(cl, option, value, min, max, "");
    }

    /** {@code OPTION must be MIN..MAX UNIT: VALUE} (e.g. {@code seconds}) unless {@code min <= value <= max}. */
    public static void range(CommandLine cl, String option, long value, long min, long max, String unit) {
        if (value < min || value > max) {
            throw new CommandLine.ParameterException(cl, option + " must be " + min + ".." + max
                    + (unit.isEmpty() ? "" : " " + unit) + ": " + value);
        }
    }
}
