package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.Downlink;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.Fp16;
import dev.fedbpt.engine.method.MethodContext;
import dev.fedbpt.engine.method.MethodState;
import dev.fedbpt.engine.method.Payload;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.SettingException;
import dev.fedbpt.engine.method.TokenEmbeddings;
import dev.fedbpt.engine.method.Upload;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * DLS-EC ("Personalized Federated Learning for Text Classification with Gradient-Free Prompt Tuning", seed 001;
 * spec: ../shared/reference/OTHER-METHODS.md, part A). The prompt P' is T input-embedding vectors. Each federated
 * round every sampled client runs {@link LocalSearch} and uploads one token id (or SKIP) per position; the server
 * rebuilds each client's prompt from the embedding matrix, averages them (Eq. 5, uniform) and sends either the
 * residual against the previous prompt compressed onto Phi tokens per position ({@link ResidualCompression}, Eq.
 * 8-11) or the average in fp16 (FullDownload). The coefficients are rounded to fp16 before the server uses them, so
 * the server and the clients hold the same prompt bit for bit. After the federated rounds, the personalisation
 * round: every client, held out or not, post-tunes with BBT ({@link PostTuning}) and scores itself on its own test
 * rows; P and NP are the mean accuracies of participants and of held-out clients.
 */
final class DlsEcMethod implements FederatedMethod {
    static final String NAME = "dls-ec";

    private final DlsEcConfig config;
    private final MethodContext context;
    private final Lazy<VocabularyIndex> index;
    private final Lazy<ResidualCompression> compression;
    private final Lazy<Projection> projection;

    DlsEcMethod(DlsEcConfig config, MethodContext context) {
        this.config = config;
        this.context = context;
        projection = Personalisation.projection(config, context);
        index = new Lazy<>(() -> new VocabularyIndex(context.model().embeddings(), context.model().vocabulary()));
        compression = new Lazy<>(() -> new ResidualCompression(index.get()));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public MethodState initialize() {
        if (context.model().vocabulary().size() >= UpdateWire.SKIP_ON_WIRE) {
            throw new IllegalStateException("DLS-EC sends 16-bit token ids; the model's vocabulary has "
                    + context.model().vocabulary().size() + " tokens");
        }
        return new DlsEcState(0, Personalisation.firstPrompt(config.promptLength(), config.firstToken(),
                context.model()), null, 0, List.of());
    }

    @Override
    public Downlink configure(MethodState global, int round) {
        return new DlsEcDownlink(round, ((DlsEcState) global).prompt());
    }

    /** The update that made the state's prompt, which a holder of the previous prompt applies. */
    @Override
    public Payload downlinkUpdate(MethodState global, int round, List<Upload> previousUploads) {
        Update update = ((DlsEcState) global).update();
        return update == null ? null : new DlsEcUpdate(update);
    }

    @Override
    public Downlink replay(Downlink held, Payload update) {
        if (!(held instanceof DlsEcDownlink previous) || !(update instanceof DlsEcUpdate u)) {
            throw new IllegalArgumentException("DLS-EC rebuilds a prompt from the previous prompt and its update");
        }
        return new DlsEcDownlink(previous.round() + 1, u.update().apply(previous.prompt(),
                context.model().embeddings()));
    }

    @Override
    public ClientProcedure client(Downlink downlink, ClientTask task) {
        DlsEcDownlink d = (DlsEcDownlink) downlink;
        if (d.round() < context.rounds()) {
            return new LocalSearch(config, index.get(), d.prompt(), task);
        }
        return new PostTuning(config.postTuning(), projection.get(), d.prompt(), task);
    }

    @Override
    public MethodState aggregate(MethodState global, List<Upload> uploads) {
        DlsEcState state = (DlsEcState) global;
        List<Upload> sorted = new ArrayList<>(uploads);
        sorted.sort(Comparator.comparingInt(Upload::clientId));
        if (state.round() >= context.rounds()) {
            return new DlsEcState(state.round() + 1, state.prompt(), state.update(), state.screenedPositions(),
                    Personalisation.results(uploads));
        }
        double[][] average = average(state.prompt(), sorted);
        if (config.download() == DlsEcConfig.Download.FULL) {
            float[][] full = new float[average.length][average[0].length];
            for (int t = 0; t < full.length; t++) {
                for (int j = 0; j < full[t].length; j++) {
                    full[t][j] = Fp16.round(average[t][j]);
                }
            }
            Update update = new Update.Full(full);
            return new DlsEcState(state.round() + 1, update.apply(state.prompt(), context.model().embeddings()), update,
                    state.screenedPositions(), List.of());
        }
        double[][] residuals = new double[average.length][average[0].length];
        for (int t = 0; t < residuals.length; t++) {
            for (int j = 0; j < residuals[t].length; j++) {
                residuals[t][j] = average[t][j] - state.prompt()[t][j];
            }
        }
        ResidualCompression.Result[] results = compression.get().compressAll(residuals, config.phi(), config.alpha(),
                config.alphaScale(), config.firstPass());
        int[][] tokens = new int[results.length][];
        float[][] coefficients = new float[results.length][];
        long screened = state.screenedPositions();
        for (int t = 0; t < results.length; t++) {
            tokens[t] = results[t].tokens();
            coefficients[t] = results[t].coefficients();
            screened += results[t].screened() ? 1 : 0;
        }
        Update update = new Update.Compressed(tokens, coefficients);
        return new DlsEcState(state.round() + 1, update.apply(state.prompt(), context.model().embeddings()), update,
                screened, List.of());
    }

    /** Eq. 5: each client's prompt rebuilt from its ids (SKIP: P''s row), averaged uniformly, in client id order. */
    private double[][] average(float[][] prompt, List<Upload> uploads) {
        TokenEmbeddings embeddings = context.model().embeddings();
        double[][] sum = new double[prompt.length][prompt[0].length];
        for (Upload upload : uploads) {
            int[] ids = ((SearchUpload) upload).ids();
            for (int t = 0; t < prompt.length; t++) {
                for (int j = 0; j < sum[t].length; j++) {
                    sum[t][j] += ids[t] == SearchUpload.SKIP ? prompt[t][j] : embeddings.get(ids[t], j);
                }
            }
        }
        for (double[] row : sum) {
            for (int j = 0; j < row.length; j++) {
                row[j] /= uploads.size();
            }
        }
        return sum;
    }

    @Override
    public String screen(MethodState global, Upload upload) {
        DlsEcState state = (DlsEcState) global;
        if (state.round() >= context.rounds()) {
            return Personalisation.screen(upload);
        }
        if (!(upload instanceof SearchUpload u)) {
            return "a federated round expects token ids, got " + upload.getClass().getSimpleName();
        }
        if (u.ids().length != config.promptLength()) {
            return u.ids().length + " token ids for a prompt of " + config.promptLength();
        }
        Vocabulary vocabulary = context.model().vocabulary();
        for (int id : u.ids()) {
            if (id != SearchUpload.SKIP && (id < 0 || id >= vocabulary.size() || vocabulary.isSpecial(id))) {
                return "token id " + id + " is not an ordinary token of the vocabulary";
            }
        }
        return null;
    }

    @Override
    public Prompt evaluationPrompt(MethodState global) {
        return new Prompt.Embeddings(((DlsEcState) global).prompt());
    }

    @Override
    public Map<String, Double> metrics(MethodState global) {
        DlsEcState state = (DlsEcState) global;
        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put("uplink_bits", 8.0 * UpdateWire.upload(new int[config.promptLength()]).length);
        metrics.put("downlink_bits", 8.0 * downlinkBytes(global));
        metrics.put("screened_positions", (double) state.screenedPositions());
        long compressed = config.download() == DlsEcConfig.Download.COMPRESSED
                ? (long) Math.min(state.round(), context.rounds()) * config.promptLength() : 0;
        if (compressed > 0) {
            // The share of compressed positions whose final LASSO pass kept fewer than Phi tokens: 1 means the
            // correlation guard, not the LASSO, chose every token.
            metrics.put("guard_rate", (double) state.screenedPositions() / compressed);
        }
        Personalisation.report(state.personal(), config.postTuning(), metrics);
        return metrics;
    }

    /** The ids message: T x 16 bits. The personalisation round's report is evaluation, not the protocol: 0. */
    public long uplinkBytes(Upload upload) {
        return upload instanceof SearchUpload u ? UpdateWire.upload(u.ids()).length : 0;
    }

    /**
     * The update that made the state's prompt, as the paper's download encodes it (0 before the first round: the
     * first prompt's tokens are agreed out of band).
     */
    public long downlinkBytes(MethodState global) {
        Update update = ((DlsEcState) global).update();
        return update == null ? 0 : UpdateWire.download(update).length;
    }

    @Override
    public Map<String, Object> resultFields() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("download", config.download().name().toLowerCase(java.util.Locale.ROOT));
        fields.put("phi", config.phi());
        fields.put("alpha", config.alpha());
        fields.put("alpha_scale", config.alphaScale().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        return fields;
    }
}
