print("hmon")
