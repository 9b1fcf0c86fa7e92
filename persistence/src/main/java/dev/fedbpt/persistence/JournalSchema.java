package dev.fedbpt.persistence;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Creates the journal tables when they are missing. Ships its own DDL because the plugin's H2 script creates an
 * index without IF NOT EXISTS and fails on every start after the first.
 */
public final class JournalSchema {
    private static final String DDL = "dev/fedbpt/persistence/h2-schema.sql";

    private JournalSchema() {}

    public static void createIfNotExists(Path runDirectory) {
        String ddl = readDdl();
        try (Connection connection = DriverManager.getConnection(JournalSettings.jdbcUrl(runDirectory), "sa", "");
             Statement statement = connection.createStatement()) {
            for (String sql : ddl.split(";")) {
                if (!sql.isBlank()) {
                    statement.execute(sql);
                }
            }
        } catch (SQLException e) {
            throw new JournalException("cannot open or create the journal in " + runDirectory.toAbsolutePath()
                    + " (" + e.getMessage() + ")", e);
        }
    }

    private static String readDdl() {
        try (InputStream in = JournalSchema.class.getClassLoader().getResourceAsStream(DDL)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + DDL);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read resource " + DDL, e);
        }
    }
}
