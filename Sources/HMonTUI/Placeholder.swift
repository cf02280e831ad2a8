// HMonTUI
