import {
  FormDataParseError,
  MaxFilesExceededError,
  MaxFileSizeExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseFormData,
  type FileUpload,
} from "@remix-run/form-data-parser";
import { ValidationError, type AppError } from "./errors.server";

export interface MultipartLimits {
  maxFiles: number;
  maxFileSize: number;
  maxTotalSize: number;
  maxParts: number;
}

/** What the person is told when a limit is passed, in the words of the form that sent the files. */
export interface MultipartErrors {
  fileTooLarge: () => AppError;
  tooManyFiles: () => AppError;
  tooLarge: () => AppError;
}

/**
 * Reads a multipart body as it arrives (docs/decisions/0034-streamed-uploads.md): each file goes to `onFile` before the next
 * part is read, and a limit stops the read the moment it is passed — a 400/413 with the caller's
 * words; a malformed body is a 400. Answers the form's other fields.
 */
export async function parseMultipart(
  request: Request,
  limits: MultipartLimits,
  errors: MultipartErrors,
  onFile: (file: FileUpload) => Promise<void>,
): Promise<FormData> {
  try {
    return await parseFormData(request, limits, onFile);
  } catch (error) {
    if (error instanceof MaxFileSizeExceededError) throw errors.fileTooLarge();
    if (error instanceof MaxFilesExceededError) throw errors.tooManyFiles();
    if (error instanceof MaxTotalSizeExceededError) throw errors.tooLarge();
    if (error instanceof FormDataParseError || error instanceof MultipartParseError)
      throw new ValidationError("The upload could not be read. Please try again.");
    throw error;
  }
}
