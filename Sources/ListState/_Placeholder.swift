// Placeholder: this target is being built (see the open issues).
