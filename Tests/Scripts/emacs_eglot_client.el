;;; emacs_eglot_client.el --- skanc lsp through Emacs's eglot, in batch  -*- lexical-binding: t -*-
;; Loaded after the README's setup: opens $SKANC_SCHEMA (its mode starts eglot), waits for the diagnostics eglot
;; hands to Flymake, formats the buffer through eglot, and writes what Emacs saw to $SKANC_OUT as JSON.
(require 'json)
(find-file (getenv "SKANC_SCHEMA"))
(defvar skanc-seen-mode (symbol-name major-mode))
;; eglot-ensure connects after the next command; a batch Emacs runs none, so the hook is run here.
(run-hooks 'post-command-hook)
;; Waits for the server's answer, not for a guessed time: the deadline only ends a run whose server never answers.
(let ((deadline (+ (float-time) 120)))
  (while (and (< (float-time) deadline) (null (flymake-diagnostics)))
    (accept-process-output nil 0.05)))
(let* ((server (eglot-current-server))
       (diagnostics
        (mapcar (lambda (diagnostic)
                  (let ((start (flymake-diagnostic-beg diagnostic)))
                    `((message . ,(flymake-diagnostic-text diagnostic))
                      (type . ,(symbol-name (flymake-diagnostic-type diagnostic)))
                      (line . ,(line-number-at-pos start))
                      ;; Characters from the line's start (`current-column' counts display width).
                      (column . ,(- start (save-excursion (goto-char start) (line-beginning-position)))))))
                (flymake-diagnostics))))
  (when server (eglot-format-buffer))
  (let ((formatted (buffer-substring-no-properties (point-min) (point-max))))
    (with-temp-file (getenv "SKANC_OUT")
      (insert (json-encode
               `((mode . ,skanc-seen-mode)
                 (connected . ,(if server t :json-false))
                 (diagnostics . ,(vconcat diagnostics))
                 (formatted . ,formatted))))))
  (when server (eglot-shutdown server)))
