package dev.fedbpt.inference;

/** The execution device a model was asked to run on (a CUDA GPU) is not available to this build or machine. */
public final class DeviceUnavailableException extends ModelLoadException {
    public DeviceUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
