package org.iwarp4j.tools.cli;

import java.util.Locale;
import picocli.CommandLine;

/** {@code on|off} (also {@code true|false}, {@code yes|no}) for switches like {@code --crc on}. */
public final class OnOffConverter implements CommandLine.ITypeConverter<Boolean> {

    @Override
    public Boolean convert(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes", "1" -> Boolean.TRUE;
            case "off", "false", "no", "0" -> Boolean.FALSE;
            default -> throw new CommandLine.TypeConversionException("'" + value + "' is neither on nor off");
        };
    }
}
